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
    /// and one decimal point; nil for anything else ("9,99 €"), where a comma might be the decimal mark. Read by hand
    /// rather than by a regular expression or a locale: the catalog is read before the first frame, and either one
    /// loads machinery (regex parsing, ICU's data) the launch has no other use for.
    public init?(shown text: String, currency: String) {
        let number = String(text.unicodeScalars.filter { Self.digits.contains($0) || $0 == "." || $0 == "," }.map(Character.init))
        // The grouping commas dropped by hand as well: `replacingOccurrences` goes through NSString.
        guard Self.isPlainAmount(number), let amount = Decimal(string: number.filter { $0 != "," }) else { return nil }
        self.init(amount, currency)
    }

    /// The amount as stored ("0.99"), read back by `init?(stored:currency:)` digit for digit.
    public var stored: String { amount.description }

    public init?(stored: String, currency: String) {
        guard let amount = Decimal(string: stored) else { return nil }
        self.init(amount, currency)
    }

    private static let digits = CharacterSet(charactersIn: "0123456789")

    /// "1500", "1,500", "0.99", "1,500.5": digits in groups of three after the first when commas group them, then at
    /// most one point followed by digits.
    static func isPlainAmount(_ number: String) -> Bool {
        let isDigits = { (part: Substring) in !part.isEmpty && part.unicodeScalars.allSatisfy(digits.contains) }
        let halves = number.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(halves.count), halves.count == 1 || isDigits(halves[1]) else { return false }
        let groups = halves[0].split(separator: ",", omittingEmptySubsequences: false)
        guard groups.allSatisfy(isDigits) else { return false }
        return groups.count == 1 || (groups[0].count <= 3 && groups.dropFirst().allSatisfy { $0.count == 3 })
    }
}

extension Decimal {
    /// In thousandths, as Apple's Server API writes prices (`price`, `renewalPrice`, `commitmentPrice`).
    public var milliunits: Int64 {
        NSDecimalNumber(decimal: self * 1000).int64Value
    }
}
