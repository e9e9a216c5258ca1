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

    @Test("the shipped catalog: a consumable first, a non-consumable and a subscription, both languages; nothing to warn of (it is read once the launch screen holds the terminal, where a warning could not be said)")
    func shipped() throws {
        #expect(try CatalogLoader.importCatalog(path: repositoryRoot.appendingPathComponent("assets/catalog.json").path).warnings == [])
        #expect(shippedCatalog.count >= 6)
        #expect(shippedCatalog.first?.kind == .consumable)
        #expect(shippedCatalog.first?.title == Localized(en: "60 Coins", zh: "60 金币"))
        #expect(shippedCatalog.contains { $0.kind == .nonConsumable })
        #expect(shippedCatalog.contains { $0.kind == .subscription && $0.title.zh == "月度会员" })
    }

    @Test("a file with iapsim's products and an Xcode file's key is read as the Xcode file it says it is, whichever way it is read, and its error says why it was read so")
    func xcodeKeyDecides() throws {
        let products = #"[{"id": "gems", "type": "consumable", "coins": 60, "price": "¥6", "title": {"en": "G", "zh": "G"}, "description": {"en": "", "zh": ""}}]"#
        for key in ["subscriptionGroups", "nonRenewingSubscriptions"] {
            let path = try write(#"{"products": "# + products + #", ""# + key + #"": []}"#, named: "catalog.json")
            #expect {
                try CatalogLoader.load(path: path)
            } throws: { error in
                "\(error)".contains("productID") && "\(error)".contains("read as an Xcode .storekit file, as it has \"\(key)\"")
            }
        }
    }

    @Test("a catalog whose top level is not an object says what the top of one looks like")
    func topLevelNotAnObject() throws {
        for text in ["[1, 2]", "\"products\"", "42"] {
            let path = try write(text, named: "catalog.json")
            #expect {
                try CatalogLoader.load(path: path)
            } throws: { error in
                "\(error)" == "\(path): the top level is not an object; give iapsim's catalog JSON ({\"products\": [...]}) or an Xcode .storekit file"
            }
        }
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
        // From a QA walk: a file that is not JSON, or is empty, was told in Foundation's words, with nothing to do.
        ("hello", "is not valid JSON (Invalid value around character 0.); give iapsim's catalog JSON or an Xcode .storekit file"),
        ("", ": is empty; give iapsim's catalog JSON or an Xcode .storekit file"),
        (" \n\t\n", ": is empty; give iapsim's catalog JSON or an Xcode .storekit file"),
        // Found by a newcomer's walk: each was accepted, and sold something other than what it says.
        (#"{"products": [{"id": "y", "type": "subscription", "price": "¥298", "title": {"en": "Y", "zh": "Y"}, "description": {"en": "", "zh": ""}, "subscription": {"group": "g", "period": "P1Y", "monthlyCommitment": {"price": "¥28", "total": "¥300"}}}]}"#,
         "monthlyCommitment.total: \"¥300\" is not 12 × ¥28"),
        (#"{"products": [{"id": "m", "type": "subscription", "price": "¥30", "title": {"en": "M", "zh": "M"}, "description": {"en": "", "zh": ""}, "subscription": {"group": "g", "winBackOffers": [{"id": "w", "mode": "pay-as-you-go", "period": "P1M", "periods": 2}]}}]}"#,
         "winBackOffers[0].price: missing: a pay-as-you-go offer charges a price"),
        (#"{"products": [{"id": "m", "type": "subscription", "price": "¥30", "title": {"en": "M", "zh": "M"}, "description": {"en": "", "zh": ""}, "subscription": {"group": "g", "winBackOffers": [{"id": "w", "mode": "free-trial", "period": "P1M"}, {"id": "w", "mode": "free-trial", "period": "P1W"}]}}]}"#,
         "winBackOffers[1].id: duplicate offer id \"w\""),
        // Found by a helper's bad inputs: an empty price was sold as "/month".
        (#"{"products": [{"id": "y", "type": "subscription", "price": "¥298", "title": {"en": "Y", "zh": "Y"}, "description": {"en": "", "zh": ""}, "subscription": {"group": "g", "period": "P1Y", "monthlyCommitment": {"price": "", "total": "¥336"}}}]}"#,
         "monthlyCommitment.price: \"\" is not a price"),
        (#"{"products": [{"id": "m", "type": "subscription", "price": "¥30", "title": {"en": "M", "zh": "M"}, "description": {"en": "", "zh": ""}, "subscription": {"group": "g", "winBackOffers": [{"id": "w", "mode": "pay-as-you-go", "period": "P1M", "periods": 2, "price": "abc"}]}}]}"#,
         "winBackOffers[0].price: \"abc\" is not a price"),
        // White space only is no offer id and no price.
        (#"{"products": [{"id": "m", "type": "subscription", "price": "¥30", "title": {"en": "M", "zh": "M"}, "description": {"en": "", "zh": ""}, "subscription": {"group": "g", "promotionalOffers": [{"id": " \u3000", "mode": "free-trial", "period": "P1M"}]}}]}"#,
         "promotionalOffers[0].id: missing"),
        (#"{"products": [{"id": "y", "type": "subscription", "price": "¥298", "title": {"en": "Y", "zh": "Y"}, "description": {"en": "", "zh": ""}, "subscription": {"group": "g", "period": "P1Y", "monthlyCommitment": {"price": " \t", "total": "¥336"}}}]}"#,
         "monthlyCommitment.price: \" \t\" is not a price"),
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

/// What a walk through 25 real .storekit files from public projects found dropped or said wrongly (issue 30, item 7),
/// each in the shape those files have.
@Suite("Real .storekit files: format 5's intro offers, offers per billing plan, Xcode's eligibility switches, empty blocks")
struct RealStoreKitFileTests {
    let scratch = Scratch()

    private func load(_ subscription: String, period: String = "P1M", settings: String = #"{"_storefront": "USA"}"#, extra: String = "") throws
        -> LoadedCatalog {
        let path = try scratch.write("""
            {"subscriptionGroups": [{"id": "G", "name": "Pro", "subscriptions": [
              {"displayPrice": "4.99", "productID": "pro.monthly", "recurringSubscriptionPeriod": "\(period)", "type": "RecurringSubscription",
               "localizations": [{"locale": "en_US", "displayName": "Pro", "description": "Pro"}], \(subscription)}]}],
             "settings": \(settings), \(extra) "version": {"major": 5, "minor": 0}}
            """, named: "real.storekit")
        return try CatalogLoader.importCatalog(path: path)
    }

    @Test("a _timeRate that is not one of Xcode's renewal rates (a fraction, a negative) is named in a warning and runs in real time; a rate speeds the clock (found by QA: 2.5 was 'not valid JSON', -1 an accelerated rate)",
          arguments: [("2.5", false), ("-1", false), ("1e20", false), ("3", true), ("0", false)])
    func timeRateChecked(_ rate: String, _ accelerated: Bool) throws {
        let loaded = try load("\"subscriptionGroupID\": \"G\"", settings: #"{"_storefront": "USA", "_timeRate": "# + rate + "}")
        #expect((loaded.speed != nil) == accelerated, "\(loaded.warnings)")
        if !accelerated, rate != "0" {
            #expect(loaded.warnings.contains { $0.contains("settings._timeRate") && $0.contains("not one of Xcode's renewal rates") }, "\(loaded.warnings)")
        }
    }

    @Test("a _timeRate that is not a number says a number was expected (found by a review: it said an object)")
    func timeRateNotANumber() {
        #expect { try load("\"subscriptionGroupID\": \"G\"", settings: #"{"_storefront": "USA", "_timeRate": "fast"}"#) } throws: { error in
            "\(error)".contains("settings._timeRate: expected a number")
        }
    }

    @Test("format 5's introductoryOffers without the singular key: the up-front plan's trial is sold; a MONTHLY plan's is named")
    func pluralIntroOffers() throws {
        let loaded = try load("""
            "introductoryOffers": [{"billingPlanType": "BILLED_UPFRONT", "internalID": "1", "numberOfPeriods": 1, "paymentMode": "free", "subscriptionPeriod": "P2W"},
                                   {"billingPlanType": "MONTHLY", "internalID": "2", "numberOfPeriods": 1, "paymentMode": "free", "subscriptionPeriod": "P1M"}]
            """)
        let intro = try #require(loaded.products.first?.subscription?.introOffer)
        #expect(intro.mode == .freeTrial && intro.period == SubscriptionPeriod(weeks: 2))
        #expect(loaded.warnings.contains { $0.contains("introductoryOffers[1]: an intro offer of the MONTHLY plan") })
        #expect(!loaded.warnings.contains { $0.contains("introductoryOffers: not used") })
    }

    @Test("a code offer's eligibility is honoured; a win-back offer's isEligible false offers it to no one, true says so in the warning")
    func eligibilitySwitches() throws {
        let loaded = try load("""
            "codeOffers": [{"internalID": "3", "offerID": "PRESS", "paymentMode": "free", "subscriptionPeriod": "P1M", "numberOfPeriods": 1,
                            "eligibility": ["existing"]}],
            "winbackOffers": [{"internalID": "4", "offerID": "back", "paymentMode": "free", "subscriptionPeriod": "P1M", "numberOfPeriods": 1, "isEligible": true},
                              {"internalID": "5", "offerID": "never", "paymentMode": "free", "subscriptionPeriod": "P1M", "numberOfPeriods": 1, "isEligible": false}]
            """)
        let terms = try #require(loaded.products.first?.subscription)
        #expect(terms.codeOffers.first?.codes?.eligibility == [.existing])
        #expect(terms.winBackOffers.map(\.id) == ["back"])
        #expect(loaded.warnings.contains { $0.contains("isEligible false: the win-back offer \"never\" is offered to no one") })
        #expect(loaded.warnings.contains { $0.contains("winbackOffers: 1 win-back offer(s) sold") && $0.contains("Xcode's isEligible true stands for") })
        #expect(!loaded.warnings.contains { $0.contains("eligibility: not used") || $0.contains("isEligible: not used") })
    }

    @Test("a bad price drops only what it prices: a MONTHLY plan's, the plan (the product still sells); an offer's, the offer, which is then not listed either; a missing price is named as such")
    func badPricesDropOnlyTheirPart() throws {
        let loaded = try load("""
            "adHocOffers": [{"internalID": "7", "offerID": "promo1", "paymentMode": "payAsYouGo", "subscriptionPeriod": "P1M", "numberOfPeriods": 3, "displayPrice": "abc"}],
            "billingPlans": [{"billingPlanType": "MONTHLY", "displayPrice": "abc", "commitmentDisplayPrice": "59.88"},
                             {"billingPlanType": "MONTHLY", "displayPrice": "4.99"}]
            """, period: "P1Y")
        let product = try #require(loaded.products.first)
        #expect(product.subscription?.monthlyCommitment == nil)
        #expect(product.subscription?.offers.contains { $0.id == "promo1" } == false)
        #expect(loaded.warnings.contains { $0.contains("billingPlans[0].displayPrice: \"abc\"") && $0.contains("MONTHLY not sold") })
        #expect(loaded.warnings.contains { $0.contains("billingPlans[1]: MONTHLY without its commitmentDisplayPrice; not sold") })
    }

    @Test("Xcode's StoreKit errors arm the fault of the same StoreKit 2 call: Verification a signed transaction that fails its check, App Store Sync a failing restore; one without a fault is named")
    func storeKitErrors() throws {
        let errors = ["Verification", "App Store Sync", "Subscription Status"].map { #"{"current": null, "enabled": true, "name": "\#($0)"}"# }
        let loaded = try load(#""familyShareable": false"#, settings: #"{"_storefront": "USA", "_storeKitErrors": [\#(errors.joined(separator: ","))]}"#)
        #expect(loaded.faults.contains(.unverifiedTransaction) && loaded.faults.contains(.restoreFails))
        #expect(!loaded.faults.contains(.verifyStatus))
        #expect(loaded.warnings.contains { $0.contains("\"Subscription Status\" has no matching iapsim fault") })
        #expect(!loaded.warnings.contains { $0.contains("\"Verification\"") || $0.contains("\"App Store Sync\"") })
    }

    @Test("what Xcode leaves empty says nothing (appPolicies with no EULA or policy); an empty price is said as such; a free trial's price and a StoreKit error's chosen case are named")
    func emptyAndIgnored() throws {
        let loaded = try load("""
            "introductoryOffer": {"displayPrice": "0.99", "internalID": "6", "numberOfPeriods": 1, "paymentMode": "free", "subscriptionPeriod": "P1W"}
            """, settings: #"{"_storefront": "USA", "_storeKitErrors": [{"current": {"index": 2, "type": "generic"}, "enabled": true, "name": "Load Products"}]}"#,
            extra: #""appPolicies": {"eula": "", "policies": [{"locale": "en_US", "policyText": "", "policyURL": ""}]},"#)
        #expect(!loaded.warnings.contains { $0.contains("appPolicies") })
        #expect(loaded.warnings.contains { $0.contains("introductoryOffer.displayPrice 0.99 on a free trial") })
        #expect(loaded.warnings.contains { $0.contains("_storeKitErrors \"Load Products\": the error \"generic\" is not chosen") })
        let empty = try scratch.write("""
            {"products": [{"displayPrice": "", "productID": "gems", "type": "Consumable", "localizations": [{"locale": "en_US", "displayName": "Gems"}]},
                          {"displayPrice": "1.99", "productID": "more", "type": "Consumable", "localizations": [{"locale": "en_US", "displayName": "More"}]}],
             "version": {"major": 4, "minor": 0}}
            """, named: "empty-price.storekit")
        #expect(try CatalogLoader.importCatalog(path: empty).warnings.contains { $0.contains("displayPrice: empty: no price was filled in") })
    }
}
