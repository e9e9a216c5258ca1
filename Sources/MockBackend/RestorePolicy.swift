/// What the app's server does when an app user buys again or restores what the same Apple ID bought for another app
/// user (A2), by RevenueCat's names: the choice every subscription app makes, and behind most "I bought it on my other
/// account" tickets.
public enum RestorePolicy: String, Sendable, CaseIterable {
    /// The purchase moves to the app user who restored or re-bought; the previous one loses it (RevenueCat's default).
    case transfer
    /// It stays with the app user who had it; the other is told it belongs to another account.
    case keep
    /// Both hold it.
    case share

    /// What `--restore-policy` and the script step say of each.
    public var summary: String {
        switch self {
        case .transfer: "the purchase moves to the app user who restores or buys it again; the previous one loses it"
        case .keep: "it stays with the app user who had it; the other is told it belongs to another account"
        case .share: "every app user who restores or buys it again holds it too"
        }
    }
}
