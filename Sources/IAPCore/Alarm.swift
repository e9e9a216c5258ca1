import Foundation

/// Something that must not go unseen (I6): what happened, with its data; the screens put it into words.
public enum Alarm: Sendable, Equatable {
    /// An order could not be written to (or read back from) the client's store.
    case writeFailed(transactionId: String)
    /// An order keeps failing verification.
    case verifyFailing(transactionId: String, attempts: Int, reason: RetryReason)
    /// The backend cannot verify anything until its own setup is fixed (Apple's status says how: 21004, its shared
    /// secret is wrong): the order waits, unfinished, for the next launch or login instead of being retried in a loop.
    case serverMisconfigured(transactionId: String, appleStatus: Int)
    /// A user's orders could not be read at login.
    case readFailed(user: String)
    /// A party's own database failed; the detail is the database's message, which stays as it is.
    case storage(party: Party, detail: String)
    /// A paid transaction no evidence ties to one user: it waits unclaimed in the store's queue for support (I3).
    case unattributed(transactionId: String, productId: String)
    /// The store finished paid transactions the backend has no record of (a lost write, e.g. a lost WAL file):
    /// the user paid and was never credited. Of the store's latest `ofLatest` finished ones, the only ones looked at.
    case creditMissing(transactionIds: [String], ofLatest: Int)
    /// Apple said the payment went through and the receipt is empty (seed 002: "that is surely a problem"): the order
    /// waits and is retried; someone should know.
    case receiptEmpty(transactionId: String)
    /// The receipt had nothing for an order because another Apple ID than the one that paid is signed in: the order
    /// waits for the one that paid (A1).
    case receiptOfAnotherAppleId(transactionId: String, paidWith: String, signedIn: String)

    /// Its name for the backend's list (seed 002: alarms are uploaded).
    public var kind: String {
        switch self {
        case .writeFailed: "write-failed"
        case .verifyFailing: "verify-failing"
        case .serverMisconfigured: "server-misconfigured"
        case .readFailed: "read-failed"
        case .storage: "storage"
        case .unattributed: "unattributed"
        case .creditMissing: "credit-missing"
        case .receiptEmpty: "receipt-empty"
        case .receiptOfAnotherAppleId: "receipt-of-another-apple-id"
        }
    }

    /// The transaction it is about, when it is about one.
    public var transactionId: String? {
        switch self {
        case let .writeFailed(id), let .verifyFailing(id, _, _), let .serverMisconfigured(id, _), let .unattributed(id, _),
             let .receiptEmpty(id), let .receiptOfAnotherAppleId(id, _, _):
            id
        case let .creditMissing(ids, _): ids.first
        case .readFailed, .storage: nil
        }
    }
}

extension Alarm {
    /// Whose database failed.
    public enum Party: String, Sendable, Equatable {
        case store, client, backend
    }
}

/// An alarm as the client uploads it to the backend, where support lists it (seed 002).
public struct AlarmReport: Codable, Sendable, Equatable {
    public let device: String
    public let user: String?
    public let kind: String
    public let transactionId: String?
    /// In English, as support reads it.
    public let text: String
    /// ISO 8601, UTC, as any server reads it.
    public let raisedAt: String

    public init(device: String, user: String?, kind: String, transactionId: String?, text: String, raisedAt: String) {
        self.device = device
        self.user = user
        self.kind = kind
        self.transactionId = transactionId
        self.text = text
        self.raisedAt = raisedAt
    }
}
