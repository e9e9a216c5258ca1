import Foundation

/// An amount in a currency: what a product costs and what an order paid. Kept as a value and put in words only when
/// shown, so that an order bought in one language reads right in the other.
public struct Money: Sendable, Equatable {
    public let amount: Decimal
    /// ISO 4217 ("CNY", "USD").
    public let currency: String

    public init(_ amount: Decimal, _ currency: String) {
        self.amount = amount
        self.currency = currency
    }

    /// The amount a price written for people carries ("¥6", "$0.99", "₩1,500"): digits, commas that group thousands
    /// and one decimal point; nil for anything else ("9,99 €"), where a comma might be the decimal mark.
    public init?(shown text: String, currency: String) {
        let number = text.filter { $0.isASCII && ($0.isNumber || $0 == "." || $0 == ",") }
        guard text.filter({ $0.isASCII && $0.isNumber }).count > 0,
              number.wholeMatch(of: /[0-9]{1,3}(,[0-9]{3})*(\.[0-9]+)?|[0-9]+(\.[0-9]+)?/) != nil,
              let amount = Decimal(string: number.replacingOccurrences(of: ",", with: ""), locale: Self.posix) else { return nil }
        self.init(amount, currency)
    }

    /// The amount as stored ("0.99"), read back by `init?(stored:currency:)` digit for digit.
    public var stored: String { NSDecimalNumber(decimal: amount).description(withLocale: Self.posix) }

    public init?(stored: String, currency: String) {
        guard let amount = Decimal(string: stored, locale: Self.posix) else { return nil }
        self.init(amount, currency)
    }

    private static let posix = Locale(identifier: "en_US_POSIX")
}
