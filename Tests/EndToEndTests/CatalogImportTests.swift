import Foundation
import Testing

/// `iapsim catalog --json` on .storekit files of every format, written for these tests: what each fixture defines is
/// what iapsim imports, and what it cannot use is named in a warning, never dropped silently.
@Suite("Importing .storekit files whole and loudly")
struct CatalogImportTests {
    private struct Listing: Decodable {
        struct Item: Decodable {
            let id: String
            let type: String
            let name: String
            let price: String
            let group: String?
            let level: Int?
            let period: String?
            let offers: [Offer]?
            let familyShareable: Bool?
            let monthlyCommitment: [String: String]?
            let groupName: String?
        }

        struct Offer: Decodable {
            let type: String
            let id: String?
            let mode: String?
            let period: String?
            let periods: Int?
            let price: String?
        }

        let products: [Item]
        let warnings: [String]

        func product(_ id: String) -> Item? { products.first { $0.id == id } }
    }

    private func fixture(_ name: String) -> String {
        repositoryRoot.appendingPathComponent("Tests/EndToEndTests/StoreKitFixtures/\(name)").path
    }

    private func catalog(_ name: String, extra: [String] = []) async throws -> (status: Int32, listing: Listing?, output: String) {
        let work = try makeWorkDirectory()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let status = try await spawn([builtBinary, "catalog", "--json", "--catalog", fixture(name)] + extra, output: work + "/out")
        let output = try String(contentsOfFile: work + "/out", encoding: .utf8)
        return (status, try? JSONDecoder().decode(Listing.self, from: Data(output.utf8)), output)
    }

    @Test("format 1: product ids under `identifier`, a non-renewing subscription, a consumable's coins from the grants file, never from its name")
    func formatOne() async throws {
        let (status, listing, output) = try await catalog("v1-identifier.storekit")
        #expect(status == 0, "\(output)")
        let list = try #require(listing)
        #expect(list.products.map(\.id) == ["org.fixture.fuel87", "org.fixture.season"])
        #expect(list.product("org.fixture.season")?.type == "non-renewing")
        #expect(list.product("org.fixture.fuel87")?.price == "$0.99")
    }

    @Test("format 2: groups, levels, periods, every intro offer mode, a promotional offer and a code offer sold at their terms, the code its reference name")
    func formatTwo() async throws {
        let list = try #require(try await catalog("v2-offers.storekit").listing)
        let monthly = try #require(list.product("org.fixture.pro.monthly"))
        #expect(monthly.group == "20000001" && monthly.level == 2 && monthly.period == "P1M" && monthly.price == "$9.90")
        #expect(monthly.offers?.map(\.type) == ["introductory", "promotional", "code"])
        let promotional = try #require(monthly.offers?[1])
        #expect(promotional.id == "comeback" && promotional.mode == "pay-as-you-go" && promotional.periods == 3 && promotional.price == "$0.99")
        #expect(monthly.offers?.first?.mode == "free-trial" && monthly.offers?.first?.period == "P1W")
        let yearly = try #require(list.product("org.fixture.pro.yearly"))
        #expect(yearly.level == 1 && yearly.period == "P1Y" && yearly.price == "$99")
        #expect(yearly.offers?.first?.mode == "pay-up-front" && yearly.offers?.first?.periods == 2 && yearly.offers?.first?.price == "$19.99")
        // A family-shareable non-consumable is shared with the buyer's family (A4): honoured, so not named.
        #expect(!list.warnings.contains { $0.contains("familyShareable") })
        #expect(list.product("org.fixture.noads")?.familyShareable == true && monthly.familyShareable == nil)
        let code = try #require(monthly.offers?[2])
        #expect(code.id == "Press codes" && code.mode == "free-trial" && code.period == "P1M")
        #expect(!list.warnings.contains { $0.contains("promotional offer") || $0.contains("code offer") })
    }

    @Test("format 3: the storefront's currency (₩1,500), the settings that arm faults and set the clock, and those that cannot, named")
    func formatThree() async throws {
        let list = try #require(try await catalog("v3-settings.storekit").listing)
        #expect(list.product("org.fixture.gems100")?.price == "₩1,500")
        #expect(list.warnings.contains { $0.contains("_timeRate") })
        #expect(list.warnings.contains { $0.contains("Subscription Status") })
        #expect(list.warnings.contains { $0.contains("settings._someFutureSetting: not used") })
        let work = try makeWorkDirectory()
        defer { try? FileManager.default.removeItem(atPath: work) }
        #expect(try await spawn([builtBinary, "catalog", "--catalog", fixture("v3-settings.storekit")], output: work + "/text") == 0)
        let text = try String(contentsOfFile: work + "/text", encoding: .utf8)
        #expect(text.contains("arms products-fail, purchase-fails, ask-to-buy"))
        #expect(text.contains("grants one unit"))
    }

    @Test("format 4: empty and missing localizations keep the product (reference name, then product id) with a warning; pay as you go")
    func formatFour() async throws {
        let list = try #require(try await catalog("v4-localizations.storekit").listing)
        #expect(list.product("org.fixture.stones")?.name == "Stones")
        #expect(list.product("org.fixture.bare")?.name == "org.fixture.bare")
        #expect(list.product("org.fixture.club")?.offers?.first?.mode == "pay-as-you-go")
        #expect(list.product("org.fixture.club")?.price == "¥980")
        #expect(list.warnings.filter { $0.contains("localization") || $0.contains("display name") }.count == 3)
    }

    @Test("format 5: Simplified and Traditional Chinese told apart, emoji kept, NT$, win-back offers named")
    func formatFive() async throws {
        let list = try #require(try await catalog("v5-chinese.storekit").listing)
        #expect(list.product("org.fixture.coins")?.name == "Coins 🪙")
        #expect(list.product("org.fixture.coins")?.price == "NT$99")
        #expect(list.product("org.fixture.vip")?.period == "P1W")
        #expect(list.warnings.contains { $0.contains("no Simplified Chinese") })
        #expect(list.warnings.contains { $0.contains("winbackOffers:") && $0.contains("no customer eligibility") })
        #expect(list.warnings.contains { $0.contains("appPolicies: not used") })
    }

    /// The keys of Xcode's format iapsim reads (or that are Xcode's own ids and dates), by their place: a product's as
    /// `entry.KEY` wherever the product is. Every other key of a file must be named in a warning.
    private static let honoured: Set<String> = [
        "identifier", "version", "version.major", "version.minor", "products", "nonRenewingSubscriptions", "subscriptionGroups", "settings",
        "subscriptionGroups[].id", "subscriptionGroups[].name", "subscriptionGroups[].subscriptions",
        "entry.productID", "entry.referenceName", "entry.type", "entry.displayPrice", "entry.internalID", "entry.groupNumber",
        "entry.recurringSubscriptionPeriod", "entry.subscriptionGroupID", "entry.localizations", "entry.localizations[].locale",
        "entry.localizations[].displayName", "entry.localizations[].description", "entry.introductoryOffer",
        "entry.introductoryOffer.internalID", "entry.introductoryOffer.numberOfPeriods", "entry.introductoryOffer.paymentMode",
        "entry.introductoryOffer.subscriptionPeriod", "entry.familyShareable", "entry.adHocOffers", "entry.adHocOffers[].internalID", "entry.adHocOffers[].offerID",
        "entry.adHocOffers[].referenceName", "entry.adHocOffers[].paymentMode", "entry.adHocOffers[].subscriptionPeriod",
        "entry.adHocOffers[].numberOfPeriods", "entry.adHocOffers[].displayPrice", "entry.codeOffers", "entry.codeOffers[].internalID",
        "entry.codeOffers[].offerID", "entry.codeOffers[].referenceName", "entry.codeOffers[].paymentMode", "entry.codeOffers[].subscriptionPeriod",
        "entry.codeOffers[].numberOfPeriods", "entry.codeOffers[].displayPrice",
        "entry.codeOffers[].eligibility", "entry.introductoryOffers", "entry.introductoryOffers[].billingPlanType",
        "entry.introductoryOffers[].internalID", "entry.introductoryOffers[].numberOfPeriods", "entry.introductoryOffers[].paymentMode",
        "entry.introductoryOffers[].subscriptionPeriod",
        "entry.billingPlans", "entry.billingPlans[].billingPlanType", "entry.billingPlans[].displayPrice",
        "entry.billingPlans[].commitmentDisplayPrice", "entry.billingPlans[].internalID", "entry.billingPlans[].isEnabled",
        "settings._storefront", "settings._locale", "settings._timeRate", "settings._askToBuyEnabled", "settings._failTransactionsEnabled",
        "settings._interruptedPurchasesEnabled", "settings._billingIssuesEnabled", "settings._renewalBillingIssuesEnabled",
        "settings._billingGracePeriodEnabled", "settings._storeKitErrors", "settings._storeKitErrors[].name", "settings._storeKitErrors[].enabled",
        "settings._storeKitErrors[].current", "settings._applicationInternalID", "settings._developerTeamID", "settings._lastSynchronizedDate",
        "settings._lastAutoRenewableSubscriptionGroupID", "settings._compatibilityTimeRate", "settings._compatibilityTimeRate.3",
    ]

    /// Keys named by the import's own words rather than "KEY: not used by iapsim".
    private static let namedAs = [
        "familyShareable": "familyShareable: Family Sharing is simulated for non-consumables only",
        "subscriptionOffersKeyPair": "subscriptionOffersKeyPair: no id, or its privateKey is not a P-256 key",
        "winbackOffers": "winbackOffers: 1 win-back offer(s) sold to any lapsed subscriber of the product (StoreKit 2's winBackOffer purchase option): Xcode's isEligible true", "_disableDialogs": "settings._disableDialogs:",
    ]

    @Test("format 6 with every key of Xcode's format (and some of a newer one): each key iapsim does not use is named in a warning at its place")
    func everyKeyNamed() async throws {
        let (status, listing, output) = try await catalog("v6-every-key.storekit")
        #expect(status == 0, "\(output)")
        let list = try #require(listing)
        #expect(list.products.map(\.id) == ["org.fixture.gems", "org.fixture.noads", "org.fixture.season", "org.fixture.plus.yearly"])
        #expect(!list.warnings.contains { $0.contains("newer than iapsim knows") }, "format 6 is known")
        // Format 6's billing plan and the win-back offer are sold.
        #expect(list.product("org.fixture.plus.yearly")?.monthlyCommitment == ["price": "$9.99", "total": "$119.88"])
        // The group's reference name is shown with its id.
        #expect(list.product("org.fixture.plus.yearly")?.groupName == "Plus")
        #expect(list.product("org.fixture.plus.yearly")?.offers?.contains { $0.type == "winback" && $0.id == "winback1" } == true)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: fixture("v6-every-key.storekit")))) as? [String: Any])
        var checked = 0
        /// `generic`: the key's place as `honoured` spells it; `anchor`: the warning's first words (its product, group or list).
        func walk(_ object: [String: Any], generic: String, anchor: String) {
            for (key, value) in object {
                let place = generic.isEmpty ? key : "\(generic).\(key)"
                checked += 1
                // A false flag, an empty list or null says nothing, so there is nothing to name.
                if value is NSNull || (value as? [Any])?.isEmpty == true || (!(value is String) && (value as? Bool) == false) { continue }
                guard Self.honoured.contains(place) else {
                    let said = Self.namedAs[key] ?? "\(key): not used by iapsim"
                    #expect(list.warnings.contains { $0.hasPrefix(anchor) && $0.contains(said) }, "\(place) (under \(anchor)) is dropped silently")
                    continue
                }
                if let inner = value as? [String: Any] { walk(inner, generic: place, anchor: anchor) }
                for (i, element) in ((value as? [[String: Any]]) ?? []).enumerated() {
                    let isEntry = ["products", "nonRenewingSubscriptions", "subscriptionGroups[].subscriptions"].contains(place)
                    let elementAnchor = generic.hasPrefix("subscriptionGroups") || generic.isEmpty ? "\(anchor.isEmpty ? "" : anchor + ".")\(key)[\(i)]" : anchor
                    walk(element, generic: isEntry ? "entry" : place + "[]", anchor: elementAnchor)
                }
            }
        }
        walk(root, generic: "", anchor: "")
        #expect(checked >= 60)
        // What a newer Xcode adds, at any depth, is named by its place too.
        for (anchor, key) in [("futureRootField", "futureRootField"), ("products[0] \"org.fixture.gems\"", "futureProductField"),
                              ("subscriptionGroups[0].subscriptions[0] \"org.fixture.plus.yearly\"", "introductoryOffer.futureOfferField"),
                              ("settings._futureSetting", "_futureSetting")] {
            #expect(list.warnings.contains { $0.hasPrefix(anchor) && $0.contains("\(key): not used by iapsim") }, "\(key)")
        }
        #expect(list.warnings.contains { $0.contains("billingPlans: MONTHLY is sold to StoreKit 2 apps") && $0.contains("not simulated") })
    }

    @Test("a file's subscriptionOffersKeyPair that cannot be read is named, and its private key is never printed: not by `catalog`, `catalog --json`, nor the warnings at launch")
    func offersKeyNeverPrinted() async throws {
        let secret = "FIXTUREsecretNEVERprintedTHISkey"
        let file = fixture("v6-every-key.storekit")
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains(secret))
        let work = try makeWorkDirectory()
        defer { try? FileManager.default.removeItem(atPath: work) }
        try "launch alice\n".write(toFile: work + "/s.iapsim", atomically: true, encoding: .utf8)
        for (name, arguments) in [("text", ["catalog", "--catalog", file]), ("json", ["catalog", "--json", "--catalog", file]),
                                  ("play", ["play", "--catalog", file, "--data-dir", work + "/data", work + "/s.iapsim"])] {
            _ = try await spawn([builtBinary] + arguments, output: work + "/" + name)
            let output = try String(contentsOfFile: work + "/" + name, encoding: .utf8)
            #expect(output.contains("subscriptionOffersKeyPair: no id, or its privateKey is not a P-256 key"), "\(name): \(output)")
            #expect(!output.contains(secret), "\(name) printed the private key")
        }
    }

    @Test("`iapsim catalog` shows the billing grace period among the settings it honours: the catalog's, else on for iapsim's own and off for a .storekit file")
    func gracePeriodShown() async throws {
        let work = try makeWorkDirectory()
        defer { try? FileManager.default.removeItem(atPath: work) }
        for (name, shown) in [(nil, "billing grace period on"), ("v5-chinese.storekit", "billing grace period off"),
                              ("v6-every-key.storekit", "billing grace period on")] {
            #expect(try await spawn([builtBinary, "catalog"] + (name.map { ["--catalog", fixture($0)] } ?? []), output: work + "/out") == 0)
            let text = try String(contentsOfFile: work + "/out", encoding: .utf8)
            #expect(text.split(separator: "\n").contains { $0.hasPrefix("settings: ") && $0.contains(shown) }, "\(name ?? "shipped"): \(text)")
        }
    }

    @Test("a storefront and locale of their own: 9,99 €")
    func germanStorefront() async throws {
        let list = try #require(try await catalog("de-storefront.storekit").listing)
        #expect(list.product("org.fixture.werbefrei")?.price == "9,99\u{00A0}€")
    }

    @Test("an XML property list is refused, saying what it is and how to convert it")
    func propertyList() async throws {
        let (status, _, output) = try await catalog("old-plist.storekit")
        #expect(status == 1)
        #expect(output.hasPrefix("iapsim: "))
        #expect(output.contains("property list") && output.contains("Xcode"))
    }
}
