import ArgumentParser
import Foundation
import IAPCore
import LaunchOptions
import Launcher
import MockStore

/// `iapsim catalog`: what iapsim imported from a catalog, and every warning about what it could not use.
struct CatalogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog", abstract: "Print the products iapsim imports from a catalog, then every warning.")

    @OptionGroup var catalog: CatalogOption
    @Flag(help: "Print {\"products\":[…],\"settings\":{…},\"warnings\":[…]} as JSON.")
    var json = false

    func run() throws {
        let loaded = CatalogFile.imported(catalog.catalog)
        let listing = CatalogListing(loaded)
        if json {
            print(try JSONText.encode(listing))
            return
        }
        for (product, imported) in zip(listing.products, loaded.products) {
            var line = "\(product.id)  \(product.type)  \(product.name)  \(product.price)"
            if imported.kind.isConsumable { line += imported.grantsUnit ? "  grants one unit" : "  grants \(imported.coins) coins" }
            if let group = product.group, let level = product.level, let period = product.period {
                line += "  group \(product.groupName.map { "\"\($0)\" (\(group))" } ?? group) · level \(level) · \(period)"
            }
            for offer in product.offers ?? [] {
                // A code offer's id is the code to type, unless it has one-time codes (`iapsim state` lists those).
                var rules = offer.oneTimeCodes.map { ["\($0) one-time codes"] } ?? []
                if let limit = offer.limit { rules.append("limit \(limit)") }
                if let who = offer.eligibility { rules.append("for " + who.joined(separator: "/")) }
                if let paid = offer.paidMonths, paid > 0 { rules.append("paid \(paid)+ months") }
                if let window = offer.monthsSinceLapsed, window != [0, WinBackRules.mostMonths] { rules.append("lapsed \(window[0])–\(window[1]) months") }
                if let wait = offer.waitMonths, wait > 0 { rules.append("once per \(wait) months") }
                let terms = [offer.price, offer.periods.map { "×\($0)" }].compactMap { $0 }
                let named = [offer.type, offer.id.map { "\"\($0)\"" }, offer.mode, offer.period].compactMap { $0 } + terms + rules
                line += "  [\(named.joined(separator: " "))]"
            }
            if product.familyShareable == true { line += "  family-shareable" }
            if let plan = product.monthlyCommitment { line += "  [billing plan MONTHLY \(plan.price) ×\(CommitmentPlan.billingPeriods), \(plan.total) in all]" }
            print(line)
        }
        var honoured: [String] = []
        if let storefront = loaded.storefront { honoured.append("storefront \(storefront)") }
        if let locale = loaded.locale { honoured.append("locale \(locale)") }
        if let speed = loaded.speed { honoured.append("clock \(Int(speed))×") }
        if !loaded.faults.isEmpty { honoured.append("arms " + loaded.faults.map(\.rawValue).joined(separator: ", ")) }
        honoured.append(loaded.billingGracePeriod ? "billing grace period on" : "billing grace period off (a failed renewal stops the service at once)")
        if !honoured.isEmpty { print("settings: " + honoured.joined(separator: " · ")) }
        for warning in listing.warnings { print("warning: \(warning)") }
    }
}

/// The catalog as `iapsim catalog --json` prints it.
struct CatalogListing: Encodable {
    struct Item: Encodable {
        let id: String
        let type: String
        let name: String
        let price: String
        let group: String?
        let level: Int?
        let period: String?
        let offers: [Offer]?
        /// True for what the buyer's family owns too (Family Sharing); absent otherwise.
        var familyShareable: Bool?
        /// A one-year subscription's plan "monthly with a 12-month commitment": each month's price and the whole.
        var monthlyCommitment: Commitment?
        /// The group's reference name, when the catalog gives one besides its id.
        var groupName: String?
    }

    struct Commitment: Encodable {
        let price: String
        let total: String
    }

    struct Offer: Encodable {
        /// introductory, promotional, code, winback
        let type: String
        let id: String?
        let mode: String?
        let period: String?
        let periods: Int?
        let price: String?
        /// An offer code's App Store Connect settings, when it has them.
        var oneTimeCodes: Int?
        var limit: Int?
        var eligibility: [String]?
        /// A win-back offer's customer eligibility.
        var paidMonths: Int?
        var monthsSinceLapsed: [Int]?
        var waitMonths: Int?
    }

    /// The settings iapsim honours that hold for the whole catalog: a .storekit file's storefront, locale, clock speed and
    /// the faults its settings arm.
    struct Settings: Encodable {
        let billingGracePeriod: Bool
        let storefront: String?
        let locale: String?
        let speed: Double?
        let faults: [String]?
    }

    let products: [Item]
    let settings: Settings
    let warnings: [String]

    init(_ loaded: LoadedCatalog) {
        products = loaded.products.map { product in
            let terms = product.subscription
            var offers: [Offer] = []
            if let intro = terms?.introOffer {
                offers.append(Offer(type: "introductory", id: nil, mode: intro.mode.rawValue, period: intro.period.description,
                                    periods: intro.periods, price: intro.price?[.en]))
            }
            // The offers iapsim sells, with their terms and rules; then what is only listed (an offer it cannot sell).
            let sold = [("promotional", terms?.promotionalOffers ?? []), ("code", terms?.codeOffers ?? []), ("winback", terms?.winBackOffers ?? [])]
            for (type, list) in sold {
                for offer in list {
                    var listed = Offer(type: type, id: offer.id, mode: offer.terms.mode.rawValue, period: offer.terms.period.description,
                                       periods: offer.terms.periods, price: offer.terms.price?[.en])
                    if let codes = offer.codes {
                        listed.oneTimeCodes = codes.oneTimeCodes > 0 ? codes.oneTimeCodes : nil
                        listed.limit = codes.limit
                        let everyone = codes.eligibility.count == SubscriptionOffer.CodeRules.Eligibility.allCases.count
                        listed.eligibility = everyone ? nil : SubscriptionOffer.CodeRules.Eligibility.allCases.filter(codes.eligibility.contains).map(\.rawValue)
                    }
                    if let rules = offer.winBack {
                        (listed.paidMonths, listed.waitMonths) = (rules.paidMonths, rules.waitMonths)
                        listed.monthsSinceLapsed = [rules.monthsSinceLapsed.lowerBound, rules.monthsSinceLapsed.upperBound]
                    }
                    offers.append(listed)
                }
            }
            let soldIds = Set(sold.flatMap { type, list in list.map { "\(type) \($0.id)" } })
            for listed in terms?.offers ?? [] where !soldIds.contains("\(listed.kind.rawValue) \(listed.id)") {
                offers.append(Offer(type: listed.kind.rawValue, id: listed.id, mode: listed.mode, period: listed.period, periods: listed.periods,
                                    price: nil))
            }
            return Item(id: product.id, type: product.kind.rawValue, name: product.title[.en], price: product.price[.en], group: terms?.group,
                        level: terms?.level, period: terms?.period.description, offers: offers.isEmpty ? nil : offers,
                        familyShareable: product.familyShareable ? true : nil,
                        monthlyCommitment: terms?.monthlyCommitment.map { Commitment(price: $0.monthlyPrice[.en], total: $0.totalPrice[.en]) },
                        groupName: terms.flatMap { loaded.groupNames[$0.group] })
        }
        settings = Settings(billingGracePeriod: loaded.billingGracePeriod, storefront: loaded.storefront, locale: loaded.locale, speed: loaded.speed,
                            faults: loaded.faults.isEmpty ? nil : loaded.faults.map(\.rawValue))
        warnings = loaded.warnings
    }
}

/// The commands' `--json`: keys sorted, so that the same data prints the same bytes.
enum JSONText {
    static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
