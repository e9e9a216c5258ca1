import Foundation
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
