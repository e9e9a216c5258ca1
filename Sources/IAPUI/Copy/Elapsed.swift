import Foundation

/// How long since the start, in eight columns, as the inspector's timeline and play's transcript say it.
public enum Elapsed {
    /// Seconds to the tenth while they fit the column; past a day or so (a subscription's renewals, `wait` of a year),
    /// days and hours in the same eight columns.
    public static func text(_ seconds: TimeInterval) -> String {
        guard seconds >= 100_000 else { return String(format: "%7.1fs", seconds) }
        let hours = Int(seconds / 3_600)
        return String(format: "%3dd %02dh", hours / 24, hours % 24)
    }
}
