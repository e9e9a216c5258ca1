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

        struct Text: Decodable {
            let en: String
            let zh: String
        }

        /// An auto-renewable subscription's group, level (1 is the highest), ISO 8601 period and intro offer.
        struct Terms: Decodable {
            let group: String
            let level: Int?
            let period: String?
            let introOffer: Offer?
        }

        struct Offer: Decodable {
            let mode: String
            let period: String
            let periods: Int?
            let price: String?
        }
    }

    let products: [Entry]
    /// The ISO 4217 code of the prices' currency, for terminals that cannot draw its symbol.
    let currency: String?
}

extension CatalogFile.Entry {
    func product(at location: String) throws -> Product {
        guard let kind = Product.Kind(rawValue: type) else {
            throw Problem(location: "\(location).type", message: "unknown type \"\(type)\" (expected \(Product.Kind.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return Product(
            id: id, kind: kind,
            title: Localized(en: title.en, zh: title.zh),
            summary: Localized(en: description.en, zh: description.zh),
            price: Localized(price),
            coins: kind.isConsumable ? (coins ?? 0) : 0,
            subscription: try subscription.map { try $0.terms(at: "\(location).subscription") }
        )
    }
}

extension CatalogFile.Entry.Terms {
    func terms(at location: String) throws -> SubscriptionTerms {
        try SubscriptionTerms.checkLevel(level, at: "\(location).level")
        return SubscriptionTerms(group: group, level: level ?? 1, period: try Self.period(period ?? "P1M", at: "\(location).period"),
                                 introOffer: try introOffer.map { offer in
            guard let mode = IntroOffer.Mode(rawValue: offer.mode) else {
                throw Problem(location: "\(location).introOffer.mode",
                              message: "unknown mode \"\(offer.mode)\" (expected \(IntroOffer.Mode.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            try IntroOffer.checkPeriods(offer.periods, at: "\(location).introOffer.periods")
            return IntroOffer(mode: mode, period: try Self.period(offer.period, at: "\(location).introOffer.period"),
                              periods: offer.periods ?? 1, price: offer.price.map { Localized($0) })
        })
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

    static func checkPeriods(_ periods: Int?, at location: String) throws {
        if let periods, !(1...mostPeriods).contains(periods) {
            throw Problem(location: location, message: "takes a whole number 1 to \(mostPeriods), not \(periods)")
        }
    }
}

extension SubscriptionTerms {
    static let lowestLevel = 100

    static func checkLevel(_ level: Int?, at location: String) throws {
        if let level, !(1...lowestLevel).contains(level) {
            throw Problem(location: location, message: "takes a whole number 1 (the highest) to \(lowestLevel), not \(level)")
        }
    }
}
