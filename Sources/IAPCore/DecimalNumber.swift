extension Double {
    /// A number as people write one: decimal digits, a point, an exponent. Not Swift's hexadecimal floats ("0x10"),
    /// nor "inf" or "nan", which `Double(_:)` also reads.
    public init?(decimal text: String) {
        guard !text.isEmpty, text.unicodeScalars.allSatisfy({ "0123456789.eE+-".unicodeScalars.contains($0) }), let value = Double(text) else {
            return nil
        }
        self = value
    }

    /// As a person writes it: 0.1, 1000, -1 (no trailing ".0" for a whole number), for a message quoting it.
    public var written: String {
        rounded() == self && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}
