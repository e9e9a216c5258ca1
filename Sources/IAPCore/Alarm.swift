/// Something that must not go unseen (I6): what happened, with its data; the screens put it into words.
public enum Alarm: Sendable, Equatable {
    /// An order could not be written to (or read back from) the client's store.
    case writeFailed(transactionId: String)
    /// An order keeps failing verification.
    case verifyFailing(transactionId: String, attempts: Int, reason: String)
    /// The backend cannot verify anything until its own setup is fixed (Apple's status says how: 21004, its shared
    /// secret is wrong): the order waits, unfinished, for the next launch or login instead of being retried in a loop.
    case serverMisconfigured(transactionId: String, appleStatus: Int)
    /// A user's orders could not be read at login.
    case readFailed(user: String)
    /// A party's own database failed; the detail is the database's message, which stays as it is.
    case storage(party: String, detail: String)
    /// A paid transaction no evidence ties to one user: it waits unclaimed in the store's queue for support (I3).
    case unattributed(transactionId: String, productId: String)
    /// The store finished paid transactions the backend has no record of (a lost write, e.g. a lost WAL file):
    /// the user paid and was never credited.
    case creditMissing(transactionIds: [String])
}
