import Foundation

/// The date strings Apple sends beside each `_ms` field: "2024-05-01 12:00:00 Etc/GMT" and the same instant in
/// Cupertino, "2024-05-01 05:00:00 America/Los_Angeles".
public enum AppleDate {
    /// The last instant Apple's date strings can write (a four-digit year).
    public static let latest = Date(timeIntervalSince1970: 253_402_300_799)

    /// Apple's dates as numbers: milliseconds since 1970.
    /// Bounded to 1970 through `latest`, so that no stored date, however it was made, can trap a later command.
    public static func milliseconds(_ date: Date) -> Int64 {
        Int64((min(max(date.timeIntervalSince1970, 0), latest.timeIntervalSince1970) * 1000).rounded())
    }

    static func gmt(_ date: Date) -> String { text(date, in: "GMT", named: "Etc/GMT") }
    static func pst(_ date: Date) -> String { text(date, in: "America/Los_Angeles", named: "America/Los_Angeles") }

    private static func text(_ date: Date, in zone: String, named name: String) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone) ?? TimeZone(secondsFromGMT: 0)!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d-%02d-%02d %02d:%02d:%02d ", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
            + name
    }
}
