import Foundation

/// Dates as Apple's receipt payload writes them, IA5Strings such as "2024-05-01T12:00:00Z". iapsim's clock keeps
/// milliseconds, which verifyReceipt's `_ms` fields answer with, so a date that has them keeps them as RFC 3339's
/// fraction ("2024-05-01T12:00:00.250Z"); a whole second is written as Apple writes it.
enum RFC3339 {
    struct BadDate: Error {
        let text: String
    }

    // Made once: a receipt writes several dates per purchase.
    private static let style = Date.ISO8601FormatStyle(timeZone: TimeZone(secondsFromGMT: 0)!)

    /// From Apple's milliseconds since 1970, as `Receipt` keeps them.
    static func text(_ milliseconds: String) throws -> String {
        guard let milliseconds = Int64(milliseconds), milliseconds >= 0 else { throw BadDate(text: milliseconds) }
        let whole = style.format(Date(timeIntervalSince1970: Double(milliseconds / 1000)))
        let fraction = milliseconds % 1000
        guard fraction != 0 else { return whole }
        let digits = String(fraction)
        return whole.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }

    static func milliseconds(_ text: String) throws -> String {
        let parts = text.split(separator: ".", maxSplits: 1)
        var fraction: Int64 = 0
        var whole = text
        if parts.count == 2 {
            let digits = parts[1].dropLast()
            guard parts[1].last == "Z", digits.count == 3, let value = Int64(digits) else { throw BadDate(text: text) }
            fraction = value
            whole = parts[0] + "Z"
        }
        guard let date = try? style.parse(whole) else { throw BadDate(text: text) }
        return String(Int64(date.timeIntervalSince1970) * 1000 + fraction)
    }
}
