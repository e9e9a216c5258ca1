import AppleVocabulary
import Foundation
import IAPCore

/// An Xcode StoreKit configuration file (`.storekit`, JSON formats 1 to 6). Every field is optional here: a file Xcode
/// wrote is loaded whole, and what is missing or unusable becomes a warning on the product, never a refusal of the file.
struct StoreKitFile: Decodable {
    struct Localization: Decodable {
        let locale: String?
        let displayName: String?
        let description: String?
    }

    struct Offer: Decodable {
        let internalID: String?
        let offerID: String?
        let referenceName: String?
        let paymentMode: String?
        let subscriptionPeriod: String?
        /// Decoded as any number, so that 1.5 is named with its range rather than called bad JSON.
        let numberOfPeriods: Decimal?
        let displayPrice: String?
        /// Format 5 on: the billing plan the offer is for (`BILLED_UPFRONT`, `MONTHLY`); none, the product's own.
        let billingPlanType: String?
        /// A code offer's: who may redeem (`new`, `existing`, `expired`).
        let eligibility: [String]?
        /// A win-back offer's: Xcode's test switch for whether the customer is eligible.
        let isEligible: Bool?

        /// For the product's own, up-front billing: the offers iapsim sells.
        var isUpFront: Bool { billingPlanType == nil || billingPlanType == BillingPlan.upFront.rawValue }
    }

    struct BillingPlanEntry: Decodable {
        let billingPlanType: String?
        let displayPrice: String?
        let commitmentDisplayPrice: String?
        let isEnabled: Bool?
    }

    struct Entry: Decodable {
        let productID: String?
        /// Format 1 names the product id `identifier`.
        let identifier: String?
        let referenceName: String?
        let type: String?
        let displayPrice: String?
        let familyShareable: Bool?
        let localizations: [Localization]?
        let groupNumber: Decimal?
        let recurringSubscriptionPeriod: String?
        let introductoryOffer: Offer?
        /// Format 5 on: the intro offers, one per billing plan.
        let introductoryOffers: [Offer]?
        /// Promotional offers.
        let adHocOffers: [Offer]?
        let codeOffers: [Offer]?
        let winbackOffers: [Offer]?
        /// Format 6: how a one-year subscription may be billed (`BILLED_UPFRONT`, `MONTHLY` with a 12-month commitment).
        let billingPlans: [BillingPlanEntry]?

        var id: String? { productID ?? identifier }
    }

    struct Group: Decodable {
        let id: String?
        let name: String?
        let subscriptions: [Entry]?
    }

    struct StoreKitError: Decodable {
        struct Current: Decodable {
            let type: String?
        }

        let name: String?
        let enabled: Bool?
        /// The error Xcode throws when enabled.
        let current: Current?
    }

    struct Settings: Decodable {
        let _storefront: String?
        let _locale: String?
        /// Xcode's renewal rate (SKTestSession.TimeRate's raw value); read as any number, so that a bad one is named.
        let _timeRate: Double?
        let _askToBuyEnabled: Bool?
        let _failTransactionsEnabled: Bool?
        let _storeKitErrors: [StoreKitError]?
        let _interruptedPurchasesEnabled: Bool?
        let _billingIssuesEnabled: Bool?
        let _renewalBillingIssuesEnabled: Bool?
        let _billingGracePeriodEnabled: Bool?
        let _disableDialogs: Bool?
    }

    struct Version: Decodable {
        let major: Int?
    }

    /// The subscription offers key App Store Connect gave the app: its id and the private key, base64 PKCS#8.
    struct KeyPair: Decodable {
        let id: String?
        let privateKey: String?
    }

    let products: [Entry]?
    let nonRenewingSubscriptions: [Entry]?
    let subscriptionGroups: [Group]?
    let settings: Settings?
    let version: Version?
    let subscriptionOffersKeyPair: KeyPair?

    /// The formats this import knows; a newer one is loaded as far as its fields match, with a warning.
    static let knownVersions = 1...6
}

/// What loading a catalog found: the products, the file's settings, and every warning about what could not be used.
public struct LoadedCatalog: Sendable {
    public var products: [Product]
    public var warnings: [String] = []
    /// The warnings of products skipped whole (also among `warnings`): why a catalog left with none is refused.
    public var skipped: [String] = []
    /// The clock speed the file asks for (`_timeRate`), if any.
    public var speed: Double?
    /// The faults the file's settings arm at launch (`_askToBuyEnabled`, `_failTransactionsEnabled`, `_storeKitErrors`…).
    public var faults = ArmedFaults()
    /// The storefront (ISO 3166 alpha-3, as Xcode writes it) and locale the prices were formatted for.
    public var storefront: String?
    public var locale: String?
    /// The prices' currency (ISO 4217), when the catalog says it.
    public var currency: String?
    /// Whether a failed renewal keeps the service on for a grace period while Apple retries (the app's opt-in to
    /// Billing Grace Period); every subscription of `products` follows it.
    public var billingGracePeriod = true
    /// The key the app's server signs promotional offers with (a .storekit file's `subscriptionOffersKeyPair`);
    /// every subscription of `products` carries it.
    public var offersKey: SubscriptionOffersKey?
    /// A .storekit file's subscription groups' reference names, by group id, for `iapsim catalog`.
    public var groupNames: [String: String] = [:]

    public init(products: [Product]) {
        self.products = products
    }
}

extension StoreKitFile {
    func catalog() throws -> LoadedCatalog {
        var warnings: [String] = []
        if let major = version?.major, !Self.knownVersions.contains(major) {
            warnings.append("version: format \(major) is newer than iapsim knows (\(Self.knownVersions.lowerBound)–\(Self.knownVersions.upperBound)); loaded what matches")
        }
        let prices = StorefrontPrice(storefront: settings?._storefront, locale: settings?._locale)
        warnings += prices.warnings
        var found: [Product] = []
        var skipped: [String] = []
        var groupNames: [String: String] = [:]
        func add(_ entry: Entry, at location: String, group: String? = nil) {
            do {
                let (product, notes) = try entry.product(at: location, prices: prices, group: group, fileLocale: settings?._locale)
                found.append(product)
                warnings += notes.map { "\(location) \"\(product.id)\": \($0)" }
            } catch let problem as Problem {
                let named = entry.id.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : " \"\($0)\"" } ?? ""
                skipped.append("\(problem.location): \(problem.message);\(named) skipped")
            } catch {
                skipped.append("\(location): \(error); skipped")
            }
        }
        for (list, entries) in [("products", products ?? []), ("nonRenewingSubscriptions", nonRenewingSubscriptions ?? [])] {
            for (i, entry) in entries.enumerated() { add(entry, at: "\(list)[\(i)]") }
        }
        for (g, group) in (subscriptionGroups ?? []).enumerated() {
            let groupId = group.id ?? group.name ?? "group \(g + 1)"
            if let name = group.name, !name.isEmpty, name != groupId { groupNames[groupId] = name }
            for (i, entry) in (group.subscriptions ?? []).enumerated() {
                add(entry, at: "subscriptionGroups[\(g)].subscriptions[\(i)]", group: groupId)
            }
        }
        warnings += skipped
        // Bought in the file's storefront: Germany's, say, where euros alone would name France's.
        if let storefront = settings?._storefront.flatMap(Storefront.init(code:)) {
            for index in found.indices { found[index].storefront = storefront.code }
        } else if let storefront = settings?._storefront, prices.warnings.isEmpty {
            warnings.append("settings._storefront \"\(storefront)\": priced in \(prices.currency), but iapsim knows no App Store storefront number for it; purchases are signed in \(Storefront(currency: prices.currency).code)'s")
        }
        var loaded = LoadedCatalog(products: found)
        loaded.skipped = skipped
        loaded.groupNames = groupNames
        loaded.storefront = settings?._storefront
        loaded.currency = prices.currency
        loaded.locale = settings?._locale
        if let settings { warnings += settings.apply(to: &loaded) } else { loaded.billingGracePeriod = false }
        if let pair = subscriptionOffersKeyPair {
            if let id = pair.id, !id.isEmpty, let key = pair.privateKey, OffersKeyPair(SubscriptionOffersKey(id: id, privateKey: key)) != nil {
                loaded.offersKey = SubscriptionOffersKey(id: id, privateKey: key)
            } else {
                // Never the key itself: only that it cannot be used.
                warnings.append("subscriptionOffersKeyPair: no id, or its privateKey is not a P-256 key in base64 PKCS#8 or PEM; promotional offers are signed with iapsim's own key (iapsim keys)")
            }
        }
        loaded.warnings = warnings + loaded.warnings
        return loaded
    }
}

extension StoreKitFile.Settings {
    /// The fastest clock iapsim runs: Xcode's accelerated renewal rates (a month in seconds or minutes) run at this.
    static let fastest = 1000.0
    /// More than Xcode's renewal rates number (its menu has about ten): a larger `_timeRate` is not one of them.
    static let rates = 100.0

    /// Turns the settings into a clock speed and armed faults; answers warnings for what it cannot honour exactly.
    func apply(to loaded: inout LoadedCatalog) -> [String] {
        var warnings: [String] = []
        if let rate = _timeRate, rate != 0 {
            if rate.rounded() == rate, (1...Self.rates).contains(rate) {
                // Xcode's accelerated rates renew a month in seconds to an hour; iapsim's clock goes up to 1000× (a month
                // in about 43 minutes), and `t` skips straight to the next renewal.
                loaded.speed = Self.fastest
                warnings.append("settings._timeRate \(Int(rate)): an accelerated renewal rate; the clock runs at iapsim's fastest, \(Int(Self.fastest))× "
                                + "(in the app, t skips to the next renewal; in a script, skip)")
            } else {
                warnings.append("settings._timeRate \(rate.written): not one of Xcode's renewal rates (a whole number 0 to \(Int(Self.rates))); "
                                + "the clock runs in real time")
            }
        }
        // Xcode's default, for a file that does not say, is no grace period (SKTestSession.billingGracePeriodIsEnabled).
        loaded.billingGracePeriod = _billingGracePeriodEnabled == true
        if _askToBuyEnabled == true { loaded.faults.insert(.askToBuy) }
        if _failTransactionsEnabled == true { loaded.faults.insert(.purchaseFails) }
        if _interruptedPurchasesEnabled == true { loaded.faults.insert(.failedThenPurchased) }
        if _billingIssuesEnabled == true || _renewalBillingIssuesEnabled == true { loaded.faults.insert(.billingFails) }
        if _disableDialogs == true { warnings.append("settings._disableDialogs: iapsim always shows the payment sheet") }
        // Xcode's errors fail StoreKit 2's calls: Verification is the device's VerificationResult of a signed transaction.
        let errors: [String: Fault] = ["Load Products": .productsFail, "Purchase": .purchaseFails, "Verification": .unverifiedTransaction,
                                       "App Store Sync": .restoreFails]
        for error in _storeKitErrors ?? [] where error.enabled == true {
            let name = error.name ?? "?"
            if let fault = errors[name] {
                loaded.faults.insert(fault)
                if let current = error.current?.type {
                    warnings.append("settings._storeKitErrors \"\(name)\": the error \"\(current)\" is not chosen; iapsim's \(fault.rawValue) fault fails it its own way")
                }
            } else {
                warnings.append("settings._storeKitErrors \"\(name)\" has no matching iapsim fault; not armed")
            }
        }
        return warnings
    }
}

extension StoreKitFile.Entry {
    /// The product, with what could not be used of it.
    func product(at location: String, prices: StorefrontPrice, group: String?, fileLocale: String?) throws -> (Product, [String]) {
        let kinds: [String: Product.Kind] = [
            "Consumable": .consumable, "NonConsumable": .nonConsumable,
            "RecurringSubscription": .subscription, "AutoRenewable": .subscription,
            "NonRenewingSubscription": .nonRenewing, "NonRenewable": .nonRenewing,
        ]
        guard let id else { throw Problem(location: "\(location).productID", message: "missing") }
        guard !id.trimmingCharacters(in: .whitespaces).isEmpty else { throw Problem(location: "\(location).productID", message: "blank") }
        guard let type, let kind = kinds[type] ?? (group != nil ? .subscription : nil) else {
            throw Problem(location: "\(location).type", message: "unknown type \"\(type ?? "")\" (expected \(kinds.keys.sorted().joined(separator: ", ")))")
        }
        var notes: [String] = []
        let texts = (localizations ?? []).filter { !($0.displayName ?? "").trimmingCharacters(in: .whitespaces).isEmpty }
        if localizations?.isEmpty ?? true {
            notes.append("has no localization; shown by its \(referenceName?.isEmpty == false ? "reference name" : "product id")")
        } else if texts.isEmpty {
            notes.append("every display name is empty; shown by its \(referenceName?.isEmpty == false ? "reference name" : "product id")")
        }
        let fallback = referenceName.flatMap { $0.isEmpty ? nil : $0 } ?? id
        let english = LocalizationChoice.english(texts, fileLocale: fileLocale)
        let simplified = LocalizationChoice.simplifiedChinese(texts)
        let chinese = simplified ?? english
        if simplified == nil, let traditional = texts.first(where: { LocalizationChoice.isTraditionalChinese($0.locale ?? "") }) {
            notes.append("no Simplified Chinese localization; 简体中文 shows the \(traditional.locale ?? "") text, not a Simplified one")
        }
        let price = try prices.checked(displayPrice, at: "\(location).displayPrice")
        let shared = familyShareable == true && kind == .nonConsumable
        if familyShareable == true, !shared {
            notes.append("familyShareable: Family Sharing is simulated for non-consumables only (only the buyer's Apple ID owns this \(kind.rawValue))")
        }
        var terms: SubscriptionTerms?
        if let group { terms = try subscriptionTerms(group: group, at: location, prices: prices, notes: &notes) }
        if group == nil, kind == .subscription { notes.append("an auto-renewable subscription outside a subscription group: alone in a group of its own") }
        return (Product(id: id, kind: kind,
                        title: Localized(en: english?.displayName ?? fallback, zh: chinese?.displayName ?? fallback),
                        summary: Localized(en: english?.description ?? "", zh: chinese?.description ?? english?.description ?? ""),
                        price: Localized(price), coins: 0, subscription: terms, amount: displayPrice.flatMap(prices.money), familyShareable: shared), notes)
    }

    private func subscriptionTerms(group: String, at location: String, prices: StorefrontPrice, notes: inout [String]) throws -> SubscriptionTerms {
        let modes: [String: IntroOffer.Mode] = ["free": .freeTrial, "payAsYouGo": .payAsYouGo, "payUpFront": .payUpFront]
        let level = try SubscriptionTerms.checkLevel(groupNumber, at: "\(location).groupNumber")
        var intro: IntroOffer?
        // Format 5 lists the intro offers per billing plan and may leave the singular key out: the up-front plan's is sold.
        let plural = introductoryOffers ?? []
        for (i, offer) in plural.enumerated() where !offer.isUpFront {
            notes.append("introductoryOffers[\(i)]: an intro offer of the \(offer.billingPlanType ?? "") plan; iapsim sells no offer of that plan")
        }
        if let offer = introductoryOffer ?? plural.first(where: \.isUpFront) {
            let place = introductoryOffer == nil ? "\(location).introductoryOffers" : "\(location).introductoryOffer"
            if offer.paymentMode == "free", let shown = offer.displayPrice, Decimal(string: shown) != 0 {
                notes.append("\(introductoryOffer == nil ? "introductoryOffers" : "introductoryOffer").displayPrice \(shown) on a free trial: "
                             + "a free trial charges nothing, so it is not used")
            }
            let periods = try IntroOffer.checkPeriods(offer.numberOfPeriods, at: "\(place).numberOfPeriods")
            let period = try offer.subscriptionPeriod.map { try CatalogFile.Entry.Terms.period($0, at: "\(place).subscriptionPeriod") }
            if let mode = offer.paymentMode.flatMap({ modes[$0] }), let period {
                intro = IntroOffer(mode: mode, period: period, periods: periods ?? 1,
                                   price: try offer.displayPrice.map { Localized(try prices.checked($0, at: "\(place).displayPrice")) })
            } else {
                notes.append("introductoryOffer: payment mode \"\(offer.paymentMode ?? "")\" or period \"\(offer.subscriptionPeriod ?? "")\" not understood; no intro offer")
            }
        }
        var period = SubscriptionPeriod.month
        if let text = recurringSubscriptionPeriod {
            period = try CatalogFile.Entry.Terms.period(text, at: "\(location).recurringSubscriptionPeriod")
        } else {
            notes.append("no recurringSubscriptionPeriod; monthly")
        }
        var offers: [SubscriptionTerms.ListedOffer] = []
        var promotional: [SubscriptionOffer] = [], codes: [SubscriptionOffer] = [], winBacks: [SubscriptionOffer] = []
        for (kind, list) in [(SubscriptionTerms.ListedOffer.Kind.promotional, adHocOffers), (.code, codeOffers), (.winback, winbackOffers)] {
            for (i, offer) in (list ?? []).enumerated() {
                let id = offer.offerID ?? offer.referenceName ?? offer.internalID ?? "?"
                let place = "\(["promotional": "adHocOffers", "code": "codeOffers", "winback": "winbackOffers"][kind.rawValue] ?? kind.rawValue)[\(i)]"
                guard offer.isUpFront else {
                    notes.append("\(place): the offer \"\(id)\" is the \(offer.billingPlanType ?? "") plan's; iapsim sells no offer of that plan")
                    continue
                }
                if kind == .winback, offer.isEligible == false {
                    notes.append("\(place): isEligible false: the win-back offer \"\(id)\" is offered to no one")
                    continue
                }
                do {
                    let periods = try IntroOffer.checkPeriods(offer.numberOfPeriods, at: "\(place).numberOfPeriods")
                    if let text = offer.subscriptionPeriod { _ = try CatalogFile.Entry.Terms.period(text, at: "\(place).subscriptionPeriod") }
                    // Checked before the offer is listed: an offer the warning says is not listed is not.
                    let price = try offer.displayPrice.map { Localized(try prices.checked($0, at: "\(place).displayPrice")) }
                    offers.append(.init(kind: kind, id: id, mode: offer.paymentMode.map { modes[$0]?.rawValue ?? $0 }, period: offer.subscriptionPeriod,
                                        periods: periods))
                    // A code offer's code is its offerID, else its reference name (Xcode's files often have no offerID).
                    let offerId = offer.offerID ?? (kind == .code ? offer.referenceName : nil)
                    if let offerId, !offerId.isEmpty, let mode = offer.paymentMode.flatMap({ modes[$0] }),
                       let period = try offer.subscriptionPeriod.map({ try CatalogFile.Entry.Terms.period($0, at: "\(place).subscriptionPeriod") }) {
                        let terms = IntroOffer(mode: mode, period: period, periods: periods ?? 1, price: price)
                        switch kind {
                        case .promotional: promotional.append(SubscriptionOffer(id: offerId, terms: terms))
                        case .code: codes.append(SubscriptionOffer(id: offerId, terms: terms, codes: SubscriptionOffer.CodeRules(
                            eligibility: try CatalogFile.Entry.Terms.eligibility(offer.eligibility.flatMap { $0.isEmpty ? nil : $0 }, at: "\(location).\(place)"))))
                        case .winback: winBacks.append(SubscriptionOffer(id: offerId, terms: terms, winBack: .anyLapsed))
                        }
                    } else {
                        notes.append("\(place): no offerID, or payment mode \"\(offer.paymentMode ?? "")\" or period \"\(offer.subscriptionPeriod ?? "")\" not understood; the offer \"\(id)\" is listed, not sold")
                    }
                } catch let problem as Problem {
                    notes.append("\(problem.location): \(problem.message); the offer \"\(id)\" is not listed")
                }
            }
            let offered = (list ?? []).filter { $0.isUpFront && $0.isEligible != false }
            if !offered.isEmpty, kind == .winback {
                let why = offered.allSatisfy { $0.isEligible == true } ? "Xcode's isEligible true stands for App Store Connect's customer eligibility"
                    : "the file names no customer eligibility"
                notes.append("winbackOffers: \(offered.count) win-back offer(s) sold to any lapsed subscriber of the product (StoreKit 2's winBackOffer "
                             + "purchase option): \(why)")
            }
        }
        return SubscriptionTerms(group: group, level: level ?? 1, period: period, introOffer: intro, offers: offers, promotionalOffers: promotional,
                                 codeOffers: codes, winBackOffers: winBacks,
                                 monthlyCommitment: try monthlyCommitment(period: period, at: location, prices: prices, notes: &notes))
    }

    /// The plan "monthly with a 12-month commitment", from `billingPlans`: the `MONTHLY` entry of a one-year subscription
    /// (its `displayPrice` each month, its `commitmentDisplayPrice` the whole commitment). What cannot be honoured is
    /// named: a plan turned off, on another period, of another type, or an up-front price other than the product's.
    private func monthlyCommitment(period: SubscriptionPeriod, at location: String, prices: StorefrontPrice, notes: inout [String]) throws
        -> CommitmentPlan? {
        var plan: CommitmentPlan?
        for (i, entry) in (billingPlans ?? []).enumerated() {
            let place = "billingPlans[\(i)]"
            guard entry.isEnabled != false else {
                notes.append("\(place): \(entry.billingPlanType ?? "a plan") is turned off (isEnabled false); not sold")
                continue
            }
            switch entry.billingPlanType {
            case "BILLED_UPFRONT":
                if let shown = entry.displayPrice, shown != displayPrice {
                    notes.append("\(place): BILLED_UPFRONT at \(shown), not the product's displayPrice \(displayPrice ?? ""); iapsim bills the product's")
                }
            case "MONTHLY":
                guard period == .year else {
                    notes.append("\(place): MONTHLY (a 12-month commitment) is for one-year subscriptions, this one renews every \(period); not sold")
                    continue
                }
                let missing = [("displayPrice", entry.displayPrice), ("commitmentDisplayPrice", entry.commitmentDisplayPrice)].filter { $0.1 == nil }
                guard missing.isEmpty, let monthly = entry.displayPrice, let total = entry.commitmentDisplayPrice else {
                    notes.append("\(place): MONTHLY without its \(missing.map(\.0).joined(separator: " and ")); not sold")
                    continue
                }
                do {
                    plan = CommitmentPlan(monthlyPrice: Localized(try prices.checked(monthly, at: "\(place).displayPrice")),
                                          totalPrice: Localized(try prices.checked(total, at: "\(place).commitmentDisplayPrice")))
                } catch let problem as Problem {
                    // A bad plan price drops the plan, as a bad offer price drops the offer: the product still sells.
                    notes.append("\(problem.location): \(problem.message); MONTHLY not sold")
                }
            default:
                notes.append("\(place): billingPlanType \"\(entry.billingPlanType ?? "")\" not known (BILLED_UPFRONT, MONTHLY); not sold")
            }
        }
        if plan != nil {
            notes.append("billingPlans: MONTHLY is sold to StoreKit 2 apps (purchase option billingPlanType(.monthly)); its own offers and the "
                         + "App Store's disclosure sheet are not simulated")
        }
        return plan
    }
}

/// Which of a product's localizations each of the app's two languages shows (documented in the README).
enum LocalizationChoice {
    /// English: the file's `_locale` when it is not Chinese, else any English one, else the first.
    static func english(_ texts: [StoreKitFile.Localization], fileLocale: String?) -> StoreKitFile.Localization? {
        let wanted = fileLocale.map(normalized).flatMap { $0.hasPrefix("zh") ? nil : $0 }
        return texts.first { wanted != nil && normalized($0.locale ?? "") == wanted }
            ?? texts.first { normalized($0.locale ?? "").hasPrefix("en") }
            ?? texts.first
    }

    /// 简体中文: zh_Hans, then zh_CN / zh_SG / plain zh; never a Traditional one (zh_Hant, zh_TW, zh_HK, zh_MO).
    static func simplifiedChinese(_ texts: [StoreKitFile.Localization]) -> StoreKitFile.Localization? {
        for wanted in ["zh_hans", "zh_hans_cn", "zh_cn", "zh_sg", "zh"] {
            if let found = texts.first(where: { normalized($0.locale ?? "") == wanted }) { return found }
        }
        return texts.first { normalized($0.locale ?? "").hasPrefix("zh_hans") }
    }

    static func isTraditionalChinese(_ locale: String) -> Bool {
        let name = normalized(locale)
        return name.hasPrefix("zh_hant") || ["zh_tw", "zh_hk", "zh_mo"].contains(name)
    }

    static func normalized(_ locale: String) -> String {
        locale.replacingOccurrences(of: "-", with: "_").lowercased()
    }
}
