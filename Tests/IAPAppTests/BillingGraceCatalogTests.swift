import Foundation
import IAPApp
import IAPCore
import MockStore
import Testing

/// Whether a failed renewal keeps the service on for a grace period is the catalog's to say: iapsim's own catalog by
/// `billingGracePeriod` (on when left out), a .storekit file by `_billingGracePeriodEnabled` (off when left out, as Xcode).
@Suite("The billing grace period follows the catalog")
struct BillingGraceCatalogTests {
    private let scratch = Scratch()

    private func storeKit(settings: String) throws -> LoadedCatalog {
        try CatalogLoader.importCatalog(path: try scratch.write("""
            {
              \(settings)
              "subscriptionGroups": [{"id": "G", "name": "VIP", "subscriptions": [
                {"displayPrice": "30", "productID": "vip.monthly", "recurringSubscriptionPeriod": "P1M", "type": "RecurringSubscription",
                 "localizations": [{"locale": "en_US", "displayName": "Monthly VIP", "description": "Monthly"}]}
              ]}],
              "version": {"major": 5, "minor": 0}
            }
            """, named: "Products.storekit"))
    }

    private func ownCatalog(_ setting: String) throws -> LoadedCatalog {
        try CatalogLoader.importCatalog(path: try scratch.write("""
            {\(setting) "products": [
              {"id": "vip", "type": "subscription", "price": "¥30", "title": {"en": "VIP", "zh": "会员"},
               "description": {"en": "Monthly", "zh": "按月"}, "subscription": {"group": "vip", "period": "P1M"}}
            ]}
            """, named: "catalog.json"))
    }

    private func grace(_ catalog: LoadedCatalog) -> [Bool?] {
        catalog.products.map { $0.subscription?.gracePeriod }
    }

    @Test("iapsim's own catalog: on when it does not say (the shipped one), off with \"billingGracePeriod\": false")
    func ownCatalog() throws {
        let shipped = try CatalogLoader.importCatalog(path: repositoryRoot.appendingPathComponent("assets/catalog.json").path)
        #expect(shipped.billingGracePeriod)
        #expect(shipped.products.compactMap(\.subscription).allSatisfy { $0.gracePeriod })
        #expect(shipped.products.compactMap(\.subscription).map(\.gracePeriodDays).contains(16))
        let off = try ownCatalog(#""billingGracePeriod": false,"#)
        #expect(!off.billingGracePeriod && grace(off) == [false])
        #expect(off.products.first?.subscription?.gracePeriodDays == nil)
        #expect(try ownCatalog(#""billingGracePeriod": true,"#).billingGracePeriod)
    }

    @Test("a .storekit file: _billingGracePeriodEnabled true is on; false, left out, or no settings at all is off, as in Xcode")
    func storeKitFile() throws {
        let on = try storeKit(settings: #""settings": {"_billingGracePeriodEnabled": true},"#)
        #expect(on.billingGracePeriod && grace(on) == [true])
        for settings in [#""settings": {"_billingGracePeriodEnabled": false},"#, #""settings": {"_storefront": "USA"},"#, ""] {
            let off = try storeKit(settings: settings)
            #expect(!off.billingGracePeriod && grace(off) == [false], "\(settings)")
        }
        #expect(!on.warnings.contains { $0.contains("_billingGracePeriodEnabled") })
    }

    @Test("a billingGracePeriod that is not true or false is refused, naming it")
    func badSetting() throws {
        #expect { try ownCatalog(#""billingGracePeriod": "yes","#) } throws: { error in
            "\(error)".contains("billingGracePeriod: expected true or false")
        }
    }

    @Test("`billing-grace on|off` before launch sets it for the run; after launch, or with another word, it is refused")
    func scriptStep() throws {
        #expect(try Script.parse("billing-grace off", file: "t.iapsim").steps.first?.step == .billingGrace(false))
        #expect(try Script.parse("billing-grace on", file: "t.iapsim").steps.first?.step == .billingGrace(true))
        #expect { try Script.parse("billing-grace maybe", file: "t.iapsim") } throws: { error in
            "\(error)" == "t.iapsim:1: `billing-grace` takes on or off, not \"maybe\""
        }
        let directory = DataDirectory(path: scratch.directory.appendingPathComponent("data").path)
        let outcome = try ScriptPlayer(ScriptPlayer.Setup(directory: directory, catalog: shippedCatalog), output: { _ in })
            .play(try Script.parse("launch alice\nbilling-grace off", file: "t.iapsim"))
        guard case let .failed(line, message) = outcome else {
            Issue.record("billing-grace after launch passed")
            return
        }
        #expect(line == 2 && message == "`billing-grace` is how the store starts: put it before `launch`")
    }
}
