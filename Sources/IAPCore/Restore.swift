/// A Restore Purchases the user asked for (S8). The store restores what the account owns to this device; the app
/// verifies and finishes each restored transaction as any other, and says how many came back once all of them are.
public struct Restore: Sendable, Equatable {
    /// Who asked. The store account is theirs, so what it restores meanwhile is theirs too (I3).
    public let user: String
    /// The store's answer: the transactions it restored; nil until it answers.
    public var restored: [String]?
    /// Transactions finished since the restore began: some may be finished before the answer comes. In StoreKit 2, the
    /// entitlements the app's server has answered.
    public var finished: Set<String> = []
    /// StoreKit 2: entitlements the app's server could not decide now.
    public var unsent: Set<String> = []
    /// Restored transactions the backend keeps with another app user of the Apple ID (A2's "keep").
    public var elsewhere: Set<String> = []
    /// Another Apple ID signed in before the store answered: what its queue brings meanwhile (restored for someone
    /// else, earlier) is no answer to this restore; only the answer then says what is.
    public var appleIdChanged = false

    public init(user: String, restored: [String]? = nil, finished: Set<String> = []) {
        self.user = user
        self.restored = restored
        self.finished = finished
    }

    /// Every transaction the store restored is verified and finished.
    var isDone: Bool { restored.map { Set($0).isSubset(of: finished) } ?? false }
}
