import Foundation

/// Runs work later on the app's clock: the real one in the app, a virtual one in tests.
public protocol Scheduler: AnyObject {
    var now: Date { get }
    func after(_ seconds: Double, _ work: @escaping () -> Void)
}

/// The store as the client sees it, shaped like `SKPaymentQueue`.
public protocol PaymentQueue: AnyObject {
    var canMakePayments: Bool { get }
    /// Attaching the observer re-delivers every unfinished transaction (S5).
    func add(observer: @escaping ([StoreTransaction]) -> Void)
    /// The unfinished transactions, as `SKPaymentQueue.transactions`: the app looks again when a callback may have been lost.
    var transactions: [StoreTransaction] { get }
    func requestProducts(_ completion: @escaping (Result<[Product], StoreRequestError>) -> Void)
    func add(_ payment: Payment)
    /// The user tapped Cancel on the payment sheet: true when that stopped the payment, false when Apple had already taken it.
    func cancelPayment(transactionId: String) -> Bool
    /// Returns false when the queue does not hold that transaction (C5).
    func finish(transactionId: String) -> Bool
    /// The app receipt, base64; nil when the device has none yet.
    func appReceipt() -> String?
}

public enum StoreRequestError: Error, Sendable, Equatable {
    case failed
}

/// The app's own server, shaped like an HTTP API: every call answers later.
public protocol Backend: AnyObject {
    func createOrder(user: String, productId: String, _ completion: @escaping (Result<String, BackendError>) -> Void)
    func verify(_ request: VerifyRequest, _ completion: @escaping (Result<VerifyResponse, BackendError>) -> Void)
    func account(user: String, _ completion: @escaping (Result<Account, BackendError>) -> Void)
}

/// What the client loads for a user at login.
public struct UserSnapshot: Sendable, Equatable {
    public var pending: [PendingOrder]
    /// Every user's payment intents: who paid, when `applicationUsername` comes back empty or the order is missing (C3, I3).
    public var paymentIntents: [PaymentIntent]
    /// Transactions other users hold, so they are never claimed by this one (C7).
    public var otherUsersTransactions: Set<String>

    public init(pending: [PendingOrder] = [], paymentIntents: [PaymentIntent] = [], otherUsersTransactions: Set<String> = []) {
        self.pending = pending
        self.paymentIntents = paymentIntents
        self.otherUsersTransactions = otherUsersTransactions
    }
}

/// Who is about to pay for what, and under which order if the backend made one: written durably before paying,
/// so that a payment re-delivered after a crash still finds its buyer (I3). It is open until its payment is claimed,
/// fails or is cancelled; its id is the payment's identity in the process that added it.
public struct PaymentIntent: Sendable, Equatable {
    public let id: Int64
    public let user: String
    public let productId: String
    public let orderId: String?
    public let createdAt: Date
    /// The payment was interrupted: Apple may still complete it with a new transaction, so the intent stays open.
    public var interrupted: Bool

    public init(id: Int64, user: String, productId: String, orderId: String?, createdAt: Date, interrupted: Bool = false) {
        self.id = id
        self.user = user
        self.productId = productId
        self.orderId = orderId
        self.createdAt = createdAt
        self.interrupted = interrupted
    }
}

/// The client's per-user persistent store (the "keychain": survives reinstall).
public protocol ClientVault: AnyObject {
    func snapshot(user: String) throws -> UserSnapshot
    /// Writes the order (closing the intent it was claimed by, in the same write), then reads it back; throws when
    /// either fails (C2).
    func save(_ order: PendingOrder, closingIntent: Int64?) throws
    /// Writes an open intent before paying and answers it with its id.
    func recordIntent(user: String, productId: String, orderId: String?, at date: Date) throws -> PaymentIntent
    /// Its payment failed, was cancelled, or never reached the store.
    func closeIntent(_ id: Int64) throws
    func markIntentInterrupted(_ id: Int64) throws
    /// Drops a finished order.
    func remove(transactionId: String, user: String) throws
    func lastUser() throws -> String?
    func setLastUser(_ user: String?) throws
}
