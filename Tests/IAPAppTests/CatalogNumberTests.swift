import AppleVocabulary
import Foundation
import IAPApp
import IAPCore
import MockStore
import Testing

/// Every number of a catalog is checked where it comes in, with its range in the message: a product that carries one
/// out of range is skipped, named, and never reaches the store, whose dates it would overflow.
@Suite("Catalog numbers: checked at the edge, the range in the message")
struct CatalogNumberTests {
    private let scratch = Scratch()

    private func write(_ text: String, named name: String) throws -> String {
        try scratch.write(text, named: name)
    }

    /// A .storekit file with a good consumable and, in a group, one subscription with `fields` spliced in.
    private func storeKit(subscription fields: String) -> String {
        """
        {"products": [{"displayPrice": "6", "productID": "gems", "type": "Consumable",
                       "localizations": [{"locale": "en_US", "displayName": "Gems", "description": ""}]}],
         "subscriptionGroups": [{"id": "G", "name": "VIP", "subscriptions": [
           {"productID": "vip", "type": "RecurringSubscription",
            "localizations": [{"locale": "en_US", "displayName": "VIP", "description": ""}], \(fields)}]}],
         "version": {"major": 4}}
        """
    }

    @Test("a .storekit number out of range skips its product, naming the place, the value and the range", arguments: [
        (#""displayPrice": "30", "recurringSubscriptionPeriod": "P1M", "groupNumber": 1, "introductoryOffer": {"paymentMode": "payUpFront", "subscriptionPeriod": "P1Y", "numberOfPeriods": 300000000}"#,
         "introductoryOffer.numberOfPeriods: takes a whole number 1 to 120, not 300000000"),
        (#""displayPrice": "30", "recurringSubscriptionPeriod": "P1M", "introductoryOffer": {"paymentMode": "payAsYouGo", "subscriptionPeriod": "P1M", "numberOfPeriods": -3}"#,
         "introductoryOffer.numberOfPeriods: takes a whole number 1 to 120, not -3"),
        (#""displayPrice": "30", "recurringSubscriptionPeriod": "P1M", "introductoryOffer": {"paymentMode": "free", "subscriptionPeriod": "P0D"}"#,
         "introductoryOffer.subscriptionPeriod: \"P0D\" is not"),
        (#""displayPrice": "30", "recurringSubscriptionPeriod": "P1M", "groupNumber": -1"#, "groupNumber: takes a whole number 1 (the highest) to 100, not -1"),
        (#""displayPrice": "30", "recurringSubscriptionPeriod": "P1M", "groupNumber": 9223372036854775807"#,
         "groupNumber: takes a whole number 1 (the highest) to 100, not 9223372036854775807"),
        (#""displayPrice": "30", "recurringSubscriptionPeriod": "P0D""#, "recurringSubscriptionPeriod: \"P0D\" is not"),
        (#""displayPrice": "30", "recurringSubscriptionPeriod": "P-1M""#, "recurringSubscriptionPeriod: \"P-1M\" is not"),
        (#""displayPrice": "30", "recurringSubscriptionPeriod": "P20Y""#, "recurringSubscriptionPeriod: \"P20Y\" is not"),
        (#""displayPrice": "1e400", "recurringSubscriptionPeriod": "P1M""#, "displayPrice: \"1e400\" is not an amount"),
        (#""displayPrice": "99999999999999", "recurringSubscriptionPeriod": "P1M""#, "displayPrice: \"99999999999999\" is not an amount"),
    ])
    func storeKitOutOfRange(fields: String, expected: String) throws {
        let loaded = try CatalogLoader.importCatalog(path: try write(storeKit(subscription: fields), named: "Products.storekit"))
        #expect(loaded.products.map(\.id) == ["gems"])
        let place = "subscriptionGroups[0].subscriptions[0]."
        #expect(loaded.warnings.contains { $0.hasPrefix(place + expected) && $0.hasSuffix("; \"vip\" skipped") }, "\(loaded.warnings)")
    }

    @Test("a .storekit whose only product is skipped is refused with the reason, not just 'no products'")
    func onlyProductSkipped() throws {
        let text = #"{"products": [{"displayPrice": "6", "productID": "   ", "type": "Consumable"}], "version": {"major": 4}}"#
        let path = try write(text, named: "Products.storekit")
        #expect {
            try CatalogLoader.load(path: path)
        } throws: { error in
            "\(error)".contains("no products") && "\(error)".contains("products[0].productID: blank; skipped")
        }
    }

    @Test("a product id of spaces is refused in iapsim's own catalog too")
    func blankProductId() throws {
        let text = #"{"products": [{"id": "  ", "type": "consumable", "coins": 1, "price": "¥6", "title": {"en": "A", "zh": "A"}, "description": {"en": "", "zh": ""}}]}"#
        let path = try write(text, named: "catalog.json")
        #expect {
            try CatalogLoader.load(path: path)
        } throws: { error in
            "\(error)".contains("products[0]") && "\(error)".contains("blank product id")
        }
    }

    @Test("a product id or title with a tab or a line break is refused, shown escaped (found by QA: it broke iapsim catalog's lines and the screen's)",
          arguments: [(#""id": "a\tb""#, #"product id "a\tb""#), (#""id": "a\nb""#, #"product id "a\nb""#),
                      (#""id": "a\u200Bb""#, #"product id "a\u200bb""#),
                      (#""id": "x", "title": {"en": "A\nB", "zh": "A"}"#, #""A\nB""#)])
    func controlInCatalog(_ fields: String, _ said: String) throws {
        let entry = fields.contains("title") ? fields : fields + #", "title": {"en": "A", "zh": "A"}"#
        let text = #"{"products": [{"#.appending(entry) + #", "type": "consumable", "coins": 1, "price": "¥6", "description": {"en": "", "zh": ""}}]}"#
        let path = try write(text, named: "catalog.json")
        #expect {
            try CatalogLoader.load(path: path)
        } throws: { error in
            "\(error)".contains(said) && "\(error)".contains("line break") && !"\(error)".contains("\n")
        }
    }

    @Test("a data folder an earlier iapsim poisoned (an expiry 300,000,000 years out) is read by state and the receipt, not a crash")
    func poisonedFolder() throws {
        // The product the loader now refuses, made directly: what an earlier iapsim sold from such a catalog.
        let vip = Product(id: "vip", kind: .subscription, title: Localized("VIP"), summary: Localized(""), price: Localized("$30"), coins: 0,
                          subscription: SubscriptionTerms(group: "G", introOffer: IntroOffer(mode: .payUpFront, period: .year, periods: 300_000_000)))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("iapsim-test-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let app = try AppSession(directory: DataDirectory(path: path), catalog: [vip], user: "alice")
        app.advance(0.5)
        app.press(.enter)
        app.advance(5)
        let report = try StateReport.json(for: DataDirectory(path: path), catalog: [vip])
        #expect(report.contains("\"expires_date_ms\" : \"\(AppleDate.milliseconds(AppleDate.latest))\""))
        #expect(app.parties.store.appReceipt() != nil)
    }

    @Test("a date beyond what Apple's fields hold is never a crash: milliseconds are bounded")
    func farDates() {
        #expect(AppleDate.milliseconds(Date(timeIntervalSince1970: 1e300)) == AppleDate.milliseconds(AppleDate.latest))
        #expect(AppleDate.milliseconds(Date(timeIntervalSince1970: -1e300)) == 0)
        #expect(AppleDate.milliseconds(Date(timeIntervalSince1970: 1.5)) == 1500)
    }
}

extension CatalogNumberTests {
    @Test("a number that is not whole, or too big for any range, is named with its place and range, not called bad JSON", arguments: [
        (#""displayPrice": "30", "recurringSubscriptionPeriod": "P1M", "introductoryOffer": {"paymentMode": "payAsYouGo", "subscriptionPeriod": "P1M", "numberOfPeriods": 1.5}"#,
         "introductoryOffer.numberOfPeriods: takes a whole number 1 to 120, not 1.5"),
        (#""displayPrice": "30", "recurringSubscriptionPeriod": "P1M", "groupNumber": 99999999999999999999999"#, "groupNumber: takes a whole number 1 (the highest) to 100, not 99999999999999999999999"),
        (#""displayPrice": "30", "recurringSubscriptionPeriod": "P10Y1D""#, "recurringSubscriptionPeriod: \"P10Y1D\" is not"),
        (#""displayPrice": "30", "recurringSubscriptionPeriod": "P121M""#, "recurringSubscriptionPeriod: \"P121M\" is not"),
        (#""displayPrice": "30", "recurringSubscriptionPeriod": "P3653D""#, "recurringSubscriptionPeriod: \"P3653D\" is not"),
    ])
    func notWholeOrHuge(fields: String, expected: String) throws {
        let loaded = try CatalogLoader.importCatalog(path: try write(storeKit(subscription: fields), named: "Products.storekit"))
        #expect(loaded.products.map(\.id) == ["gems"])
        let place = "subscriptionGroups[0].subscriptions[0]."
        #expect(loaded.warnings.contains { $0.hasPrefix(place + expected) && $0.hasSuffix("; \"vip\" skipped") }, "\(loaded.warnings)")
    }

    @Test("ten years exactly is a period; the catalog's own level and periods are checked as whole numbers too")
    func edges() throws {
        #expect(SubscriptionPeriod(iso8601: "P10Y") != nil && SubscriptionPeriod(iso8601: "P120M") != nil && SubscriptionPeriod(iso8601: "P3652D") != nil)
        let text = #"{"products": [{"id": "vip", "type": "subscription", "price": "¥30", "title": {"en": "V", "zh": "V"}, "description": {"en": "", "zh": ""}, "subscription": {"group": "G", "level": 1.5}}]}"#
        #expect {
            try CatalogLoader.load(path: try write(text, named: "catalog.json"))
        } throws: { error in
            "\(error)".contains("products[0].subscription.level: takes a whole number 1 (the highest) to 100, not 1.5")
        }
    }

    @Test("an offer code's one-time codes, limit and eligibility are checked where they come in", arguments: [
        (#""oneTimeCodes": 0"#, "codeOffers[0].oneTimeCodes: takes a whole number 1 to 10000, not 0"),
        (#""oneTimeCodes": 2.5"#, "codeOffers[0].oneTimeCodes: takes a whole number 1 to 10000, not 2.5"),
        (#""limit": 10000000"#, "codeOffers[0].limit: takes a whole number 1 to 1000000, not 10000000"),
        (#""oneTimeCodes": 5, "limit": 3"#, "codeOffers[0].limit: a limit is a custom code's"),
        (#""eligibility": ["new", "lapsed"]"#, "codeOffers[0].eligibility: unknown \"lapsed\" (expected new, existing, expired)"),
        (#""eligibility": []"#, "codeOffers[0].eligibility: empty"),
    ])
    func codeRules(fields: String, expected: String) throws {
        let text = #"{"products": [{"id": "vip", "type": "subscription", "price": "¥30", "title": {"en": "V", "zh": "V"}, "description": {"en": "", "zh": ""}, "subscription": {"group": "G", "codeOffers": [{"id": "C", "mode": "free-trial", "period": "P1M", "#
            + fields + "}]}}]}"
        #expect {
            try CatalogLoader.load(path: try write(text, named: "catalog.json"))
        } throws: { error in
            "\(error)".contains("products[0].subscription." + expected)
        }
    }

    @Test("a pay-as-you-go offer is billed each period of its subscription, as App Store Connect has it: another period is refused where it is written (found by a server developer's walk: P1W on a monthly signed offerPeriod P3W)",
          arguments: [("introOffer", #""introOffer": {"mode": "pay-as-you-go", "period": "P1W", "periods": 3, "price": "¥5"}"#),
                      ("codeOffers[0]", #""codeOffers": [{"id": "C", "mode": "pay-as-you-go", "period": "P1W", "periods": 3, "price": "¥5"}]"#)])
    func payAsYouGoPeriod(place: String, offer: String) throws {
        let text = #"{"products": [{"id": "vip", "type": "subscription", "price": "¥30", "title": {"en": "V", "zh": "V"}, "description": {"en": "", "zh": ""}, "subscription": {"group": "G", "period": "P1M", "#
            + offer + "}}]}"
        #expect {
            try CatalogLoader.load(path: try write(text, named: "catalog.json"))
        } throws: { error in
            "\(error)".contains("products[0].subscription.\(place).period: a pay-as-you-go offer is billed each period of the subscription (P1M)")
        }
    }

    @Test("a period is at most ten years on the calendar, whether or not it is far enough inside to be judged without it")
    func tenYearsOnTheCalendar() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let start = Date(timeIntervalSince1970: 978_307_200)
        let limit = calendar.date(byAdding: .year, value: 10, to: start)!
        for years in [0, 1, 9, 10] {
            for months in [0, 1, 11, 12, 119, 120] {
                for weeks in [0, 1, 521] {
                    for days in [0, 1, 30, 31, 365, 366, 3652] where years + months + weeks + days > 0 {
                        let period = SubscriptionPeriod(years: years, months: months, weeks: weeks, days: days)
                        let end = calendar.date(byAdding: DateComponents(year: years, month: months, day: weeks * 7 + days), to: start)!
                        #expect((SubscriptionPeriod(iso8601: period.description) != nil) == (end <= limit), "\(period)")
                    }
                }
            }
        }
    }

    @Test("an offer iapsim only lists is checked as well: a bad one is named, not listed as written")
    func listedOffers() throws {
        let fields = #""displayPrice": "30", "recurringSubscriptionPeriod": "P1M", "adHocOffers": [{"offerID": "promo", "paymentMode": "payAsYouGo", "subscriptionPeriod": "P-1M", "numberOfPeriods": 300000000}]"#
        let loaded = try CatalogLoader.importCatalog(path: try write(storeKit(subscription: fields), named: "Products.storekit"))
        let vip = try #require(loaded.products.first { $0.id == "vip" })
        #expect(vip.subscription?.offers.isEmpty == true)
        #expect(loaded.warnings.contains { $0.contains("adHocOffers[0]") && $0.contains("not listed") }, "\(loaded.warnings)")
    }
}

extension CatalogNumberTests {
    @Test("a .storekit whose only product, named, is skipped says why too")
    func onlyNamedProductSkipped() throws {
        let text = #"{"subscriptionGroups": [{"id": "G", "subscriptions": [{"productID": "vip", "type": "RecurringSubscription", "displayPrice": "30", "groupNumber": -1}]}], "version": {"major": 4}}"#
        let path = try write(text, named: "Products.storekit")
        #expect {
            try CatalogLoader.load(path: path)
        } throws: { error in
            "\(error)".contains("no products iapsim can use") && "\(error)".contains("groupNumber: takes a whole number 1 (the highest) to 100, not -1")
        }
    }
}

extension CatalogNumberTests {
    @Test("coins that are not a whole number are named as the file wrote them: a string quoted, a true, an object", arguments: [
        (#""5""#, #"not "5""#), ("true", "not true"), ("false", "not false"), ("{}", "not {}"), (#"{"n": 5}"#, #"not {"n":5}"#),
        ("[1]", "not [1]"), ("1e20", "not 1e+20"), ("-1", "not -1"), ("2.5", "not 2.5"),
    ])
    func coinsAsWritten(coins: String, expected: String) throws {
        let text = #"{"products": [{"id": "gems", "type": "consumable", "coins": "# + coins
            + #", "price": "¥6", "title": {"en": "G", "zh": "G"}, "description": {"en": "", "zh": ""}}]}"#
        let path = try write(text, named: "catalog.json")
        #expect {
            try CatalogLoader.load(path: path)
        } throws: { error in
            "\(error)" == "\(path): products[0] \"gems\".coins: takes a whole number 0 to 1000000, \(expected)"
        }
    }

    @Test("coins of 0, 1 and 1.0 are whole numbers, not a true or a false")
    func coinsOneAndZero() throws {
        for (coins, granted) in [("0", 0), ("1", 1), ("1.0", 1)] {
            let text = #"{"products": [{"id": "gems", "type": "consumable", "coins": "# + coins
                + #", "price": "¥6", "title": {"en": "G", "zh": "G"}, "description": {"en": "", "zh": ""}}]}"#
            #expect(try CatalogLoader.load(path: try write(text, named: "catalog.json")).first?.coins == granted)
        }
    }
}
