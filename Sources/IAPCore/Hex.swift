extension Sequence<UInt8> {
    /// Lowercase hex, two digits a byte, as digests are written (a receipt's short hash, the shared secret).
    public var hex: String {
        var text = ""
        for byte in self {
            if byte < 16 { text += "0" }
            text += String(byte, radix: 16)
        }
        return text
    }
}
