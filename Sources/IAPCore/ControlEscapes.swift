import Foundation

extension String {
    /// The text with each control character as `printf` and `$'…'` take it (`\t`, `\n`, `\x1b`), so that a message
    /// quoting what was typed stays on its line and the text can be typed again, mended.
    public var controlsEscaped: String {
        unicodeScalars.map { scalar in
            guard scalar.properties.generalCategory == .control else { return String(scalar) }
            switch scalar {
            case "\t": return "\\t"
            case "\n": return "\\n"
            case "\r": return "\\r"
            // Control characters (Cc) are all below U+00A0: two hex digits.
            default: return String(format: "\\x%02x", scalar.value)
            }
        }.joined()
    }

    /// Whether it holds a control character (a tab, a line break, an escape).
    public var holdsControl: Bool {
        unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}
