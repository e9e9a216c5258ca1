import Foundation
import AppleVocabulary
@testable import MockStore
import Testing

/// Prices as the App Store shows them, through Foundation's currency formatting.
@Suite("Prices for a storefront's currency and locale")
struct StorefrontPriceTests {
    @Test("the App Store's prices", arguments: [
        ("USA", "en_US", "9.9", "$9.90"),
        ("USA", "en_US", "0.99", "$0.99"),
        ("TWN", "en_US", "99", "NT$99"),
        ("KOR", "en_US", "1500", "₩1,500"),
        ("JPN", "en_US", "600", "¥600"),
        ("DEU", "de_DE", "9.99", "9,99\u{00A0}€"),
        ("FRA", "fr_FR", "4.99", "4,99\u{00A0}€"),
        ("GBR", "en_GB", "4.99", "£4.99"),
        ("CHE", "de_CH", "5", "CHF\u{00A0}5"),
        ("BRA", "pt_BR", "9.9", "R$\u{00A0}9,90"),
        ("IND", "en_IN", "1000", "₹1,000"),
        ("CAN", "en_CA", "1.99", "$1.99"),
        ("AUS", "en_AU", "1.99", "$1.99"),
    ])
    func table(_ storefront: String, _ locale: String, _ amount: String, _ shown: String) {
        let price = StorefrontPrice(storefront: storefront, locale: locale)
        #expect(price.warnings.isEmpty)
        #expect(price.format(amount) == shown)
    }

    @Test("without a locale, the storefront's own: China shows ¥6, Germany 9,99 €")
    func ownLocale() {
        #expect(StorefrontPrice(storefront: "CHN", locale: nil).format("6") == "¥6")
        #expect(StorefrontPrice(storefront: "DEU", locale: nil).format("9.99") == "9,99\u{00A0}€")
        #expect(StorefrontPrice(storefront: nil, locale: nil).format("0.99") == "$0.99")
    }

    @Test("every storefront a region has: a price with a digit, never a placeholder currency sign")
    func everyRegion() {
        var checked = 0
        for region in Locale.Region.isoRegions where region.identifier.count == 2 {
            let storefront = StorefrontPrice(storefront: region.identifier, locale: nil)
            guard storefront.warnings.isEmpty else { continue }  // no currency of its own: no storefront
            let price = storefront.format("4.99") ?? "¤"
            #expect(price.contains(where: \.isNumber) && !price.contains("¤"), "\(region.identifier): \(price)")
            checked += 1
        }
        #expect(checked > 150)
    }

    @Test("an unknown storefront and a price that is not an amount are named, not guessed")
    func warnings() {
        #expect(!StorefrontPrice(storefront: "XYZ", locale: nil).warnings.isEmpty)
        let shown = StorefrontPrice(storefront: "USA", locale: nil).format("free!")
        #expect(shown == nil)
    }
}

/// The storefront a purchase is signed in: a `.storekit` file's own, where its currency is several storefronts'.
@Suite("The storefront a signed transaction names")
struct SignedStorefrontTests {
    let scratch = Scratch()

    /// A purchase of the file's one consumable, signed as StoreKit 2 hands it to the app's server.
    private func signed(storefront: String) throws -> JWSTransaction {
        let path = try file(storefront: storefront)
        let app = try Harness(user: "alice", catalog: try CatalogLoader.importCatalog(path: path).products)
        app.advance(0.5)
        app.press(.enter)
        app.advance(5)
        let charge = try #require(try app.storeTransactions().first?.0)
        let jws = try #require(app.parties.store.signedTransaction(id: charge.id))
        return try #require(SignedTransaction(compactJWS: jws)).transaction
    }

    private func file(storefront: String) throws -> String {
        try scratch.write("""
            {"products": [{"displayPrice": "0.99", "productID": "coins.small", "referenceName": "Coins", "type": "Consumable",
              "localizations": [{"locale": "en_US", "displayName": "Coins", "description": "A few coins"}]}],
             "settings": {"_storefront": "\(storefront)"}, "version": {"major": 4, "minor": 0}}
            """, named: "shop.storekit")
    }

    @Test("a .storekit file's storefront is the one signed, in a currency of several storefronts too (Germany, not France, for euros), written in capitals as Apple signs it whatever case the file used (found in review: \"deu\" priced in euros but signed France)",
          arguments: [("DEU", "EUR", "143443"), ("FRA", "EUR", "143442"), ("AUT", "EUR", "143445"), ("GBR", "GBP", "143444"), ("deu", "EUR", "143443")])
    func fileStorefront(_ code: String, _ currency: String, _ id: String) throws {
        let transaction = try signed(storefront: code)
        #expect((transaction.storefront, transaction.storefrontId, transaction.currency) == (code.uppercased(), id, currency))
    }

    @Test("a storefront priced in its own currency but without a number iapsim knows is said in the catalog's warnings, with the storefront its purchases are signed in (found in review: Nigeria priced in naira, signed the United States, silently)")
    func storefrontWithoutNumber() throws {
        let warnings = try CatalogLoader.importCatalog(path: file(storefront: "NGA")).warnings
        #expect(warnings.contains { $0.contains("\"NGA\"") && $0.contains("USA") }, "\(warnings)")
        #expect(try CatalogLoader.importCatalog(path: file(storefront: "DEU")).warnings.isEmpty)
    }
}
