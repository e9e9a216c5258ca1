extension Double {
    /// A number as people write one, and as a script's `wait` reads it: decimal digits with at most one point, a minus
    /// before them (so that "-1" is refused as out of range). Not an exponent ("1e3"), nor Swift's hexadecimal floats
    /// ("0x10"), nor "inf" or "nan", which `Double(_:)` also reads.
    public init?(decimal text: String) {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let value = Double(text) else { return nil }
        self = value
    }

    /// As a person writes it: 0.1, 1000, -1 (no trailing ".0" for a whole number), for a message quoting it.
    public var written: String {
        rounded() == self && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}
