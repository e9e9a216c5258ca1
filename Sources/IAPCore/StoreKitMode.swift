import Foundation

/// Which StoreKit the client is written against (issue 28, K1). A launch setting, as `--parallel` is: the store, the
/// backend and the client's store keep nothing of it, so the same data can be played in either mode.
public enum StoreKitMode: Int, Sendable, Equatable, CaseIterable {
    /// `SKPaymentQueue`, `applicationUsername`, the app receipt and `verifyReceipt`: the seeds' client.
    case one = 1
    /// `Product.purchase(options:)` with an `appAccountToken`, `Transaction.updates`, signed transactions (JWS).
    case two = 2

    /// `1` or `2`, as `--storekit` and a script's `# storekit:` take it; nil for anything else.
    public init?(argument: String) {
        guard let number = Int(argument.trimmingCharacters(in: .whitespaces)), let mode = Self(rawValue: number) else { return nil }
        self = mode
    }

    /// What a mistake on the command line or in a script is told, after the thing's own name.
    public static func notAMode(_ given: String) -> String {
        "\"\(given)\" is not a StoreKit version; give 1 or 2"
    }
}
