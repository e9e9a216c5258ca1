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

    public static func gmt(_ date: Date) -> String { gmtStyle.format(date) + " Etc/GMT" }
    public static func pst(_ date: Date) -> String { cupertinoStyle.format(date) + " America/Los_Angeles" }

    // Made once: a receipt writes several dates, and each new calendar looks its time zone up again.
    private static let gmtStyle = style(TimeZone(secondsFromGMT: 0)!)
    private static let cupertinoStyle = style(TimeZone(identifier: "America/Los_Angeles") ?? TimeZone(secondsFromGMT: 0)!)

    /// "2024-05-01 12:00:00" in the zone: no "T", no fraction, no zone after it.
    private static func style(_ zone: TimeZone) -> Date.ISO8601FormatStyle {
        Date.ISO8601FormatStyle(dateSeparator: .dash, dateTimeSeparator: .space, timeSeparator: .colon, timeZone: zone)
            .year().month().day().time(includingFractionalSeconds: false)
    }
}
