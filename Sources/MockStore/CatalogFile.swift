import Foundation
import IAPCore

/// The app's own catalog format (`assets/catalog.json`).
struct CatalogFile: Decodable {
    struct Entry: Decodable {
        let id: String
        let type: String
        let coins: Int?
        let price: String
        let title: Text
        let description: Text
        let subscription: Terms?
        /// Owned by the buyer's family too (A4): non-consumables only.
        let familyShareable: Bool?

        /// Coins left out, or a whole number the catalog may grant.
        var coinsInRange: Bool { CatalogLoader.coinRange.contains(coins ?? 0) }

        struct Text: Decodable {
            let en: String
            let zh: String
        }

        /// An auto-renewable subscription's group, level (1 is the highest), ISO 8601 period and intro offer.
        struct Terms: Decodable {
            let group: String
            /// Decoded as any number, so that 1.5 is named with its range rather than called bad JSON.
            let level: Decimal?
            let period: String?
            let introOffer: Offer?
            /// Promotional offers, each with its `id` (App Store Connect's offer identifier).
            let promotionalOffers: [Offer]?
            /// Offer codes' offers, each redeemed with its `id` as the code.
            let codeOffers: [Offer]?
            /// Win-back offers, best first, each with its `id` and who may take it.
            let winBackOffers: [Offer]?
            /// A one-year subscription's billing plan "monthly with a 12-month commitment": each month's price and the
            /// whole commitment's.
            let monthlyCommitment: Commitment?
        }

        struct Commitment: Decodable {
            let price: String
            let total: String
        }

        struct Offer: Decodable {
            let id: String?
            let mode: String
            let period: String
            let periods: Decimal?
            let price: String?
            /// An offer code's: how many one-time codes the store makes for it (else its id is a custom code).
            let oneTimeCodes: Decimal?
            /// A custom code's redemption limit.
            let limit: Decimal?
            /// Who may redeem: `new`, `existing`, `expired` subscribers of the group (all when left out).
            let eligibility: [String]?
            /// A win-back offer's: the least months paid, how many months ago the subscription ended (`[least, most]`),
            /// and the least months since the Apple ID's last win-back offer.
            let paidMonths: Decimal?
            let monthsSinceLapsed: [Decimal]?
            let waitMonths: Decimal?
        }
    }

    let products: [Entry]
    /// The ISO 4217 code of the prices' currency, for terminals that cannot draw its symbol.
    let currency: String?
    /// Whether the app opted in to Billing Grace Period; when left out, it has (a failed renewal keeps the service on
    /// while Apple retries, 6 or 16 days).
    let billingGracePeriod: Bool?
}

extension CatalogFile {
    /// A price as a person reads it: an amount of 0 or more with digits ("¥6", "$0.99"), whatever its currency sign;
    /// a digit is what makes it not blank.
    static func isPrice(_ text: String) -> Bool {
        !text.contains("-") && !text.contains("−") && text.contains(where: \.isNumber)
    }

    static func notAPrice(_ text: String) -> String {
        "\"\(text)\" is not a price; write an amount of 0 or more, e.g. \"¥6\""
    }

    /// `text` when it is a price (`isPrice`); else the problem, at `location`.
    static func checkedPrice(_ text: String, at location: String) throws -> String {
        guard isPrice(text) else { throw Problem(location: location, message: notAPrice(text)) }
        return text
    }
}

extension CatalogFile.Entry {
    /// `currency`: the file's, which makes the price an amount an order can keep.
    func product(at location: String, currency: String?) throws -> Product {
        guard let kind = Product.Kind(rawValue: type) else {
            throw Problem(location: "\(location).type", message: "unknown type \"\(type)\" (expected \(Product.Kind.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        if familyShareable == true, kind != .nonConsumable {
            throw Problem(location: "\(location).familyShareable", message: "Family Sharing is simulated for non-consumables only, not a \(kind.rawValue)")
        }
        return Product(
            id: id, kind: kind,
            title: Localized(en: title.en, zh: title.zh),
            summary: Localized(en: description.en, zh: description.zh),
            price: Localized(price),
            coins: kind.isConsumable ? (coins ?? 0) : 0,
            subscription: try subscription.map { try $0.terms(at: "\(location).subscription") },
            amount: currency.flatMap { Money(shown: price, currency: $0) },
            familyShareable: familyShareable ?? false
        )
    }
}

extension CatalogFile.Entry.Terms {
    func terms(at location: String) throws -> SubscriptionTerms {
        let level = try SubscriptionTerms.checkLevel(level, at: "\(location).level")
        let renews = try Self.period(period ?? "P1M", at: "\(location).period")
        // App Store Connect bills a pay-as-you-go offer each period of its subscription, for a number of periods.
        func offer(_ offer: CatalogFile.Entry.Offer, at place: String) throws -> IntroOffer {
            let terms = try Self.offer(offer, at: place)
            guard terms.mode != .payAsYouGo || terms.period == renews else {
                throw Problem(location: "\(place).period", message: "a pay-as-you-go offer is billed each period of the subscription (\(renews)); "
                              + "give \"\(renews)\" and the number of periods")
            }
            return terms
        }
        func named(_ list: [CatalogFile.Entry.Offer]?, _ key: String) throws -> [SubscriptionOffer] {
            try (list ?? []).enumerated().map { i, entry in
                let place = "\(location).\(key)[\(i)]"
                guard let id = entry.id, !CatalogLoader.isBlank(id) else { throw Problem(location: "\(place).id", message: "missing") }
                let codes = key == "codeOffers" ? try Self.codeRules(entry, at: place) : nil
                let winBack = key == "winBackOffers" ? try Self.winBackRules(entry, at: place) : nil
                return SubscriptionOffer(id: id, terms: try offer(entry, at: place), codes: codes, winBack: winBack)
            }
        }
        if let plan = monthlyCommitment {
            _ = try CatalogFile.checkedPrice(plan.price, at: "\(location).monthlyCommitment.price")
            _ = try CatalogFile.checkedPrice(plan.total, at: "\(location).monthlyCommitment.total")
            guard renews == .year else {
                throw Problem(location: "\(location).monthlyCommitment", message: "is a one-year subscription's plan; this one renews every \(renews)")
            }
            if let monthly = CommitmentPlan.amount(Localized(plan.price)), let total = CommitmentPlan.amount(Localized(plan.total)),
               total != monthly * Decimal(CommitmentPlan.billingPeriods) {
                throw Problem(location: "\(location).monthlyCommitment.total",
                              message: "\"\(plan.total)\" is not \(CommitmentPlan.billingPeriods) × \(plan.price): the commitment's total is its twelve months")
            }
        }
        // App Store Connect keeps offer identifiers unique: a payment names its offer by one.
        var seen = Set<String>()
        for (key, list) in [("promotionalOffers", promotionalOffers), ("codeOffers", codeOffers), ("winBackOffers", winBackOffers)] {
            for (i, offer) in (list ?? []).enumerated() {
                if let id = offer.id, !seen.insert(id).inserted {
                    throw Problem(location: "\(location).\(key)[\(i)].id", message: "duplicate offer id \"\(id)\"; each offer of a product needs its own")
                }
            }
        }
        return SubscriptionTerms(group: group, level: level ?? 1, period: renews,
                                 introOffer: try introOffer.map { try offer($0, at: "\(location).introOffer") },
                                 promotionalOffers: try named(promotionalOffers, "promotionalOffers"), codeOffers: try named(codeOffers, "codeOffers"),
                                 winBackOffers: try named(winBackOffers, "winBackOffers"),
                                 monthlyCommitment: monthlyCommitment.map { CommitmentPlan(monthlyPrice: Localized($0.price), totalPrice: Localized($0.total)) })
    }

    /// A win-back offer's customer eligibility, checked: whole months up to ten years, the window's least not over its
    /// most. Left out: any lapsed subscriber, at once, as often as it lapses.
    static func winBackRules(_ offer: CatalogFile.Entry.Offer, at location: String) throws -> WinBackRules {
        let most = WinBackRules.mostMonths
        func months(_ value: Decimal?, _ key: String) throws -> Int? {
            try WholeNumber.checked(value, in: 0...most, at: "\(location).\(key)", saying: "takes a whole number of months 0 to \(most)")
        }
        var window = 0...most
        if let range = offer.monthsSinceLapsed {
            guard range.count == 2, let least = try months(range[0], "monthsSinceLapsed[0]"), let top = try months(range[1], "monthsSinceLapsed[1]"),
                  least <= top else {
                throw Problem(location: "\(location).monthsSinceLapsed", message: "takes [least, most] months, e.g. [1, 24], the least not over the most")
            }
            window = least...top
        }
        return WinBackRules(paidMonths: try months(offer.paidMonths, "paidMonths") ?? 0, monthsSinceLapsed: window,
                            waitMonths: try months(offer.waitMonths, "waitMonths") ?? 0)
    }

    /// An offer code's rules, checked: one-time codes or a limit (not both), each a whole number in range, and who may
    /// redeem.
    static func codeRules(_ offer: CatalogFile.Entry.Offer, at location: String) throws -> SubscriptionOffer.CodeRules {
        func whole(_ value: Decimal?, _ key: String, upTo most: Int) throws -> Int? {
            try WholeNumber.checked(value, in: 1...most, at: "\(location).\(key)", saying: "takes a whole number 1 to \(most)")
        }
        let oneTime = try whole(offer.oneTimeCodes, "oneTimeCodes", upTo: SubscriptionOffer.CodeRules.mostOneTimeCodes)
        let limit = try whole(offer.limit, "limit", upTo: 1_000_000)
        if oneTime != nil, limit != nil {
            throw Problem(location: "\(location).limit", message: "a limit is a custom code's; one-time codes are each redeemed once")
        }
        return SubscriptionOffer.CodeRules(oneTimeCodes: oneTime ?? 0, limit: limit, eligibility: try eligibility(offer.eligibility, at: location))
    }

    /// Who may redeem a code, by name (`new`, `existing`, `expired`), as iapsim's catalog and Xcode's files both write it;
    /// everyone when left out.
    static func eligibility(_ names: [String]?, at location: String) throws -> Set<SubscriptionOffer.CodeRules.Eligibility> {
        guard let names else { return Set(SubscriptionOffer.CodeRules.Eligibility.allCases) }
        let known = SubscriptionOffer.CodeRules.Eligibility.allCases.map(\.rawValue).joined(separator: ", ")
        let eligibility = try Set(names.map { name in
            guard let found = SubscriptionOffer.CodeRules.Eligibility(rawValue: name) else {
                throw Problem(location: "\(location).eligibility", message: "unknown \"\(name)\" (expected \(known))")
            }
            return found
        })
        guard !eligibility.isEmpty else { throw Problem(location: "\(location).eligibility", message: "empty: name at least one of \(known)") }
        return eligibility
    }

    static func offer(_ offer: CatalogFile.Entry.Offer, at location: String) throws -> IntroOffer {
        guard let mode = IntroOffer.Mode(rawValue: offer.mode) else {
            throw Problem(location: "\(location).mode",
                          message: "unknown mode \"\(offer.mode)\" (expected \(IntroOffer.Mode.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        let periods = try IntroOffer.checkPeriods(offer.periods, at: "\(location).periods")
        if mode != .freeTrial, offer.price == nil {
            throw Problem(location: "\(location).price", message: "missing: a \(mode.rawValue) offer charges a price (e.g. \"¥12\")")
        }
        return IntroOffer(mode: mode, period: try Self.period(offer.period, at: "\(location).period"),
                          periods: periods ?? 1, price: try offer.price.map { Localized(try CatalogFile.checkedPrice($0, at: "\(location).price")) })
    }

    static func period(_ text: String, at location: String) throws -> SubscriptionPeriod {
        guard let period = SubscriptionPeriod(iso8601: text) else {
            throw Problem(location: location, message: "\"\(text)\" is not \(SubscriptionPeriod.expected)")
        }
        return period
    }
}

extension IntroOffer {
    static let mostPeriods = 120

    static func checkPeriods(_ periods: Decimal?, at location: String) throws -> Int? {
        try WholeNumber.checked(periods, in: 1...mostPeriods, at: location, saying: "takes a whole number 1 to \(mostPeriods)")
    }
}

extension SubscriptionTerms {
    static let lowestLevel = 100

    static func checkLevel(_ level: Decimal?, at location: String) throws -> Int? {
        try WholeNumber.checked(level, in: 1...lowestLevel, at: location, saying: "takes a whole number 1 (the highest) to \(lowestLevel)")
    }
}

/// A catalog's whole numbers, read as any JSON number (as a `Decimal`, so that the value is shown as written) and
/// checked here: not whole, or out of the range, is a problem at its place with the value.
enum WholeNumber {
    static func checked(_ value: Decimal?, in range: ClosedRange<Int>, at location: String, saying rule: String) throws -> Int? {
        guard let value else { return nil }
        var whole = Decimal(), rounding = value
        NSDecimalRound(&whole, &rounding, 0, .plain)
        guard whole == value, value >= Decimal(range.lowerBound), value <= Decimal(range.upperBound) else {
            throw Problem(location: location, message: "\(rule), not \(value)")
        }
        return NSDecimalNumber(decimal: value).intValue
    }
}
