import Foundation
import IAPApp
import IAPCore
import MockStore
import Testing

@Suite("Catalogs: the shipped one, Xcode .storekit files, and clear errors")
struct CatalogTests {
    private let scratch = Scratch()

    private func write(_ text: String, named name: String) throws -> String {
        try scratch.write(text, named: name)
    }

    @Test("the shipped catalog: a consumable first, a non-consumable and a subscription, both languages")
    func shipped() {
        #expect(shippedCatalog.count >= 6)
        #expect(shippedCatalog.first?.kind == .consumable)
        #expect(shippedCatalog.first?.title == Localized(en: "60 Coins", zh: "60 金币"))
        #expect(shippedCatalog.contains { $0.kind == .nonConsumable })
        #expect(shippedCatalog.contains { $0.kind == .subscription && $0.title.zh == "月度会员" })
    }

    @Test("an Xcode .storekit file: products, non-renewing subscriptions and subscription groups")
    func storeKitFile() throws {
        let path = try write("""
            {
              "identifier": "ABC", "settings": {"_storefront": "CHN"},
              "products": [
                {"displayPrice": "6", "familyShareable": false, "internalID": "1", "productID": "gems.100",
                 "referenceName": "Gems", "type": "Consumable",
                 "localizations": [{"locale": "en_US", "displayName": "100 Gems", "description": "Shiny"},
                                   {"locale": "zh_Hans", "displayName": "100 宝石", "description": "闪亮"}]},
                {"displayPrice": "18", "productID": "pro", "type": "NonConsumable",
                 "localizations": [{"locale": "en_US", "displayName": "Pro", "description": "All features"}]}
              ],
              "nonRenewingSubscriptions": [
                {"displayPrice": "68", "productID": "season", "type": "NonRenewingSubscription",
                 "localizations": [{"locale": "en_US", "displayName": "Season", "description": "One season"}]}
              ],
              "subscriptionGroups": [
                {"id": "G", "name": "VIP", "localizations": [], "subscriptions": [
                  {"displayPrice": "30", "productID": "vip.monthly", "recurringSubscriptionPeriod": "P1M",
                   "type": "RecurringSubscription",
                   "localizations": [{"locale": "zh_Hans", "displayName": "月度会员", "description": "按月"},
                                     {"locale": "en_US", "displayName": "Monthly VIP", "description": "Monthly"}]}
                ]}
              ],
              "version": {"major": 3, "minor": 0}
            }
            """, named: "Products.storekit")
        let products = try CatalogLoader.load(path: path)
        #expect(products.map(\.id) == ["gems.100", "pro", "season", "vip.monthly"])
        #expect(products.map(\.kind) == [.consumable, .nonConsumable, .nonRenewing, .subscription])
        // No amount is guessed from "100 Gems": without a grants file, a purchase grants one unit of the product.
        #expect(products[0].coins == 0 && products[0].grantsUnit)
        #expect(products[0].title == Localized(en: "100 Gems", zh: "100 宝石"))
        #expect(products[0].price == Localized("¥6"))
        #expect(products[1].title.zh == "Pro")  // no Chinese localization: English stands in
        #expect(products[3].title == Localized(en: "Monthly VIP", zh: "月度会员"))
    }

    @Test("errors name the file, the place and the problem", arguments: [
        (#"{"products": [{"id": "a"}]}"#, "products[0].type: missing"),
        (#"{"products": [{"id": "a", "type": "consumable", "price": 6, "title": {"en": "", "zh": ""}, "description": {"en": "", "zh": ""}}]}"#, "products[0].price: expected a string"),
        (#"{"products": []}"#, "products: no products"),
        (#"{"products": [ oops ]}"#, "is not valid JSON"),
    ])
    func errors(text: String, expected: String) throws {
        let path = try write(text, named: "catalog.json")
        do {
            _ = try CatalogLoader.load(path: path)
            Issue.record("a bad catalog was accepted")
        } catch {
            #expect("\(error)".hasPrefix(path))
            #expect("\(error)".contains(expected), "\(error)")
        }
    }
}

extension CatalogTests {
    @Test("a .storekit consumable with no amount mapped grants one unit of itself; the balance counts its units")
    func unitsInTheBalance() throws {
        let catalog = try CatalogLoader.load(path: repositoryRoot.appendingPathComponent("Tests/EndToEndTests/StoreKitFixtures/v5-chinese.storekit").path)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("iapsim-test-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let app = try AppSession(directory: DataDirectory(path: path), catalog: catalog, user: "alice")
        app.advance(0.5)
        for _ in 0..<2 {
            app.press(.enter)
            app.advance(5)
            app.press(.escape)
        }
        #expect(app.state.account.units == ["org.fixture.coins": 2])
        #expect(app.state.account.coins == 0)
        #expect(app.screen(width: 100).text.contains("Balance Coins 🪙 ×2"))
    }
}
