import Foundation

extension String {
    /// The text with what cannot be seen written out, as `printf` and `$'…'` take it: a control character as `\t`,
    /// `\n`, `\x1b`; a space other than the plain one, or an invisible character, as `\u00a0`, `\u200b`. A message
    /// quoting what was typed then stays on its line, shows what is wrong, and can be typed again, mended.
    public var visiblyEscaped: String {
        unicodeScalars.map { scalar in
            switch scalar {
            case "\t": return "\\t"
            case "\n": return "\\n"
            case "\r": return "\\r"
            // Control characters (Cc) are all below U+00A0: two hex digits.
            case _ where scalar.properties.generalCategory == .control: return String(format: "\\x%02x", scalar.value)
            case _ where scalar.isInvisible: return String(format: "\\u%04x", scalar.value)
            default: return String(scalar)
            }
        }.joined()
    }

    /// Whether it holds a control character (a tab, a line break, an escape).
    public var holdsControl: Bool {
        unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// Whether it holds anything but visible characters: a space of any kind, a control or an invisible character.
    public var holdsInvisible: Bool {
        unicodeScalars.contains { $0 == " " || $0.properties.generalCategory == .control || $0.isInvisible }
    }
}

extension Unicode.Scalar {
    /// A space other than the plain one (a no-break space, an ideographic one), or a character that takes no room
    /// (a zero-width space, a direction mark).
    var isInvisible: Bool {
        self != " " && (properties.isWhitespace || properties.generalCategory == .format)
    }
}
