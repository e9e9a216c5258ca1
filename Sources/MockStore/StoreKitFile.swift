import Foundation
import IAPCore

/// An Xcode StoreKit configuration file (`.storekit`), the parts a catalog needs.
struct StoreKitFile: Decodable {
    struct Entry: Decodable {
        struct Localization: Decodable {
            let locale: String
            let displayName: String
            let description: String
        }

        let productID: String
        let type: String
        let displayPrice: String
        let localizations: [Localization]
        let groupNumber: Int?
        let recurringSubscriptionPeriod: String?
        let introductoryOffer: Offer?

        struct Offer: Decodable {
            let paymentMode: String
            let subscriptionPeriod: String
            let numberOfPeriods: Int?
            let displayPrice: String?
        }
    }

    struct Group: Decodable {
        let id: String?
        let name: String?
        let subscriptions: [Entry]
    }

    struct Settings: Decodable {
        let _storefront: String?
    }

    let products: [Entry]?
    let nonRenewingSubscriptions: [Entry]?
    let subscriptionGroups: [Group]?
    let settings: Settings?

    func catalog() throws -> [Product] {
        let symbol = Self.currencySymbol(storefront: settings?._storefront)
        var all: [Product] = []
        for (list, entries) in [("products", products ?? []), ("nonRenewingSubscriptions", nonRenewingSubscriptions ?? [])] {
            for (i, entry) in entries.enumerated() {
                all.append(try entry.product(at: "\(list)[\(i)]", currency: symbol))
            }
        }
        for (g, group) in (subscriptionGroups ?? []).enumerated() {
            for (i, entry) in group.subscriptions.enumerated() {
                let location = "subscriptionGroups[\(g)].subscriptions[\(i)]"
                all.append(try entry.product(at: location, currency: symbol,
                                             group: group.id ?? group.name ?? "group \(g + 1)"))
            }
        }
        return all
    }

    static func currencySymbol(storefront: String?) -> String {
        switch storefront {
        case "CHN", "JPN": "¥"
        case "GBR": "£"
        case "DEU", "FRA", "ITA", "ESP", "NLD": "€"
        default: "$"
        }
    }
}

extension StoreKitFile.Entry {
    func product(at location: String, currency: String, group: String? = nil) throws -> Product {
        let kinds: [String: Product.Kind] = [
            "Consumable": .consumable, "NonConsumable": .nonConsumable,
            "RecurringSubscription": .subscription, "AutoRenewable": .subscription,
            "NonRenewingSubscription": .nonRenewing, "NonRenewable": .nonRenewing,
        ]
        guard let kind = kinds[type] else {
            throw Problem(location: "\(location).type", message: "unknown type \"\(type)\" (expected \(kinds.keys.sorted().joined(separator: ", ")))")
        }
        guard let english = localization(["en"]) ?? localizations.first else {
            throw Problem(location: "\(location).localizations", message: "needs at least one localization")
        }
        let chinese = localization(["zh"]) ?? english
        return Product(
            id: productID, kind: kind,
            title: Localized(en: english.displayName, zh: chinese.displayName),
            summary: Localized(en: english.description, zh: chinese.description),
            price: Localized(currency + displayPrice),
            coins: kind.isConsumable ? Self.coins(in: english.displayName) ?? Self.coins(in: productID) ?? 1 : 0,
            subscription: try group.map { try terms(group: $0, at: location, currency: currency) }
        )
    }

    private func terms(group: String, at location: String, currency: String) throws -> SubscriptionTerms {
        let modes: [String: IntroOffer.Mode] = ["free": .freeTrial, "payAsYouGo": .payAsYouGo, "payUpFront": .payUpFront]
        let offer = try introductoryOffer.map { offer -> IntroOffer in
            guard let mode = modes[offer.paymentMode] else {
                throw Problem(location: "\(location).introductoryOffer.paymentMode",
                              message: "unknown payment mode \"\(offer.paymentMode)\" (expected \(modes.keys.sorted().joined(separator: ", ")))")
            }
            return IntroOffer(mode: mode, period: try CatalogFile.Entry.Terms.period(offer.subscriptionPeriod, at: "\(location).introductoryOffer.subscriptionPeriod"),
                              periods: offer.numberOfPeriods ?? 1, price: offer.displayPrice.map { Localized(currency + $0) })
        }
        return SubscriptionTerms(group: group, level: groupNumber ?? 1,
                                 period: try CatalogFile.Entry.Terms.period(recurringSubscriptionPeriod ?? "P1M", at: "\(location).recurringSubscriptionPeriod"),
                                 introOffer: offer)
    }

    private func localization(_ prefixes: [String]) -> Localization? {
        localizations.first { loc in prefixes.contains { loc.locale.lowercased().hasPrefix($0) } }
    }

    /// "100 Gems" credits 100; a name without a number credits one.
    private static func coins(in text: String) -> Int? {
        let digits = text.split(whereSeparator: { !$0.isNumber }).first
        return digits.flatMap { Int($0) }
    }
}
