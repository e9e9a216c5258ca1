import Foundation

/// How long since the start, in eight columns, as the inspector's timeline and play's transcript say it.
public enum Elapsed {
    /// Seconds to the tenth for the first ten minutes, as a purchase's steps follow each other; then minutes and
    /// seconds, hours and minutes, and past a day (a subscription's renewals, `wait` of a year) days and hours, all in
    /// the same eight columns.
    public static func text(_ seconds: TimeInterval) -> String {
        guard seconds >= 600 else { return String(format: "%7.1fs", seconds) }
        let whole = Int(seconds)
        if whole < 3_600 { return String(format: "%3dm %02ds", whole / 60, whole % 60) }
        if whole < 86_400 { return String(format: "%3dh %02dm", whole / 3_600, whole % 3_600 / 60) }
        return String(format: "%3dd %02dh", whole / 86_400, whole % 86_400 / 3_600)
    }
}
