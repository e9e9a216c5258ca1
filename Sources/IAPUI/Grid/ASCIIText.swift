import Foundation

/// What a terminal whose locale is not UTF-8 (`LANG=C`) is shown instead of characters it cannot draw: frames, the
/// cursor and marks in ASCII, currency symbols as ISO codes, other scripts transliterated to Latin letters (金币 →
/// "jin bi"), and "?" for what has no transliteration. Nothing is dropped.
public struct ASCIIText: Sendable, Equatable {
    /// The code "¥" stands for in this catalog (CNY for the shipped one, JPY for a Japanese storefront).
    public var yen: String

    public init(yen: String = "CNY") {
        self.yen = yen
    }

    /// The fallback the screen being drawn uses; nil on a UTF-8 terminal.
    @TaskLocal public static var current: ASCIIText?

    /// `text` as the screen being drawn shows it.
    static func shown(_ text: String) -> String {
        guard let current, !text.utf8.allSatisfy({ $0 < 0x80 }) else { return text }
        return current(text)
    }

    public func callAsFunction(_ text: String) -> String {
        guard !text.allSatisfy(\.isASCII) else { return text }
        var out = "", other = ""
        // Runs of other scripts are transliterated together, so that words keep their spaces (金币 → "jin bi").
        func flush() {
            guard !other.isEmpty else { return }
            let latin = other.applyingTransform(.toLatin, reverse: false)?.applyingTransform(.stripDiacritics, reverse: false) ?? ""
            out += String(latin.map { $0.isASCII ? $0 : "?" })
            other = ""
        }
        for character in text {
            if character.isASCII {
                flush()
                out.append(character)
            } else if let replacement = Self.symbols[character] ?? (character == "¥" || character == "￥" ? yen : nil) {
                flush()
                out += replacement
            } else {
                other.append(character)
            }
        }
        flush()
        return out
    }

    private static let symbols: [Character: String] = [
        "─": "-", "│": "|", "┌": "+", "┐": "+", "└": "+", "┘": "+", "├": "+", "┤": "+", "┬": "+", "┴": "+", "┼": "+",
        "━": "=", "═": "=", "▸": ">", "▶": ">", "◂": "<", "←": "<-", "→": "->", "↑": "^", "↓": "v", "…": "...",
        "·": "-", "•": "*", "✓": "v", "✔": "v", "✗": "x", "✘": "x", "⌫": "BS", "—": "-", "–": "-", "×": "x",
        "“": "\"", "”": "\"", "‘": "'", "’": "'", "\u{00A0}": " ", "（": "(", "）": ")", "：": ":", "，": ",", "、": ",",
        "。": ".", "？": "?", "！": "!", "€": "EUR", "£": "GBP", "₩": "KRW", "₹": "INR", "₽": "RUB", "₺": "TRY",
        "₫": "VND", "₪": "ILS", "฿": "THB", "₱": "PHP", "¢": "c", "▏": "|",
    ]
}
