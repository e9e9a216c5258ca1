import Foundation

/// Runs work later on the app's clock: the real one in the app, a virtual one in tests.
public protocol Scheduler: AnyObject {
    var now: Date { get }
    /// Whether `now` is the wall's own time (live, at the wall's speed, nothing skipped): every later run starts later.
    var isWallTime: Bool { get }
    func after(_ seconds: Double, _ work: @escaping () -> Void)
    /// As `after`, with a ticket to call the work off before it runs.
    func cancellable(after seconds: Double, _ work: @escaping () -> Void) -> Int
    func cancel(_ ticket: Int)
}

/// The store as the client sees it, shaped like `SKPaymentQueue`.
public protocol PaymentQueue: AnyObject {
    var canMakePayments: Bool { get }
    /// Attaching the observer re-delivers every unfinished transaction (S5): the first batch at once, the rest in
    /// batches on the scheduler, each batch's `more` telling whether others follow.
    func add(observer: @escaping ([StoreTransaction]) -> Void)
    /// The unfinished transactions, oldest first, a page at a time after `cursor` (as `SKPaymentQueue.transactions`:
    /// the app looks again when a callback may have been lost).
    func transactions(after cursor: StoreTransaction?, limit: Int) -> [StoreTransaction]
    func requestProducts(_ completion: @escaping (Result<[Product], StoreRequestError>) -> Void)
    func add(_ payment: Payment)
    /// The user tapped Cancel on the payment sheet: true when that stopped the payment, false when Apple had already taken it.
    func cancelPayment(transactionId: String) -> Bool
    /// Restore Purchases (`restoreCompletedTransactions`) for the store account signed in on the device: once Apple
    /// answers, what the account owns comes back to this device's queue as `restored` transactions naming the purchase
    /// each restores, told to the observer; then `completion` names them (none: nothing to restore) (S8).
    func restoreCompletedTransactions(account: String, _ completion: @escaping (Result<[String], StoreRequestError>) -> Void)
    /// StoreKit 2's Restore: `AppStore.sync()`, then `Transaction.currentEntitlements`: `completion` names the
    /// transactions the account owns now (none: nothing to restore). Nothing is written and nothing is told to the observer.
    func syncAppStore(account: String, _ completion: @escaping (Result<[String], StoreRequestError>) -> Void)
    /// Returns false when the queue does not hold that transaction (C5).
    func finish(transactionId: String) -> Bool
    /// The app receipt, base64, as the app reads it to verify; nil when the device has none yet.
    func appReceipt() -> String?
    /// StoreKit 2's `jwsRepresentation` of a transaction the store made, as the app sends it to its server; nil when
    /// the store has no such purchase or restore.
    func signedTransaction(id: String) -> String?
    /// The same receipt for the client's own bookkeeping (the hash it keeps with an order): no fault fires, so a
    /// one-shot `receipt-empty` is left for the verify it is meant for.
    func heldReceipt() -> String?
    /// The store account's subscriptions, one per group, with their status now (StoreKit's subscription status).
    func subscriptions(account: String) -> [SubscriptionStatus]
    /// Settings › Subscriptions: auto-renew off (cancel) or back on (resubscribe before the end).
    func setAutoRenew(_ on: Bool, originalTransactionId: String)
    /// The user agrees to the subscription's price increase: its next renewal charges the new price.
    func consentToPriceIncrease(originalTransactionId: String)
}

public enum StoreRequestError: Error, Sendable, Equatable {
    case failed
}

/// The app's own server, shaped like an HTTP API: every call answers later.
public protocol Backend: AnyObject {
    /// An order for the purchase the user is about to make, with (StoreKit 2) the server's word on its intro offer.
    func createOrder(user: String, productId: String, storeKit: StoreKitMode, _ completion: @escaping (Result<OrderResponse, BackendError>) -> Void)
    func verify(_ request: VerifyRequest, _ completion: @escaping (Result<VerifyResponse, BackendError>) -> Void)
    /// StoreKit 2: the user's `appAccountToken`, made the first time it is asked for and the same ever after.
    func appAccountToken(user: String, _ completion: @escaping (Result<UUID, BackendError>) -> Void)
    func account(user: String, _ completion: @escaping (Result<Account, BackendError>) -> Void)
    /// Uploads the client's alarms, where support lists them (seed 002); the same report twice is kept once.
    func report(_ alarms: [AlarmReport], _ completion: @escaping (Result<Void, BackendError>) -> Void)
    /// Where the credits are kept when iapsim cannot read them (a team's own server), for the inspector to say so.
    var creditsKeptAt: String? { get }
    /// Signs a promotional offer for the payment the user is about to make with the subscription offers key, as the
    /// app's StoreKit asks for it (1: `SKPaymentDiscount`, 2: a signed JWS); `applicationUsername` is what that payment
    /// will carry.
    func signOffer(user: String, productId: String, offerId: String, applicationUsername: String?, storeKit: StoreKitMode,
                   _ completion: @escaping (Result<OfferSignature, BackendError>) -> Void)
}

extension Backend {
    public var creditsKeptAt: String? { nil }

    /// An order alone, as StoreKit 1 asks for it.
    public func createOrder(user: String, productId: String, _ completion: @escaping (Result<String, BackendError>) -> Void) {
        createOrder(user: user, productId: productId, storeKit: .one) { completion($0.map(\.orderId)) }
    }

    /// A server that signs no offers: the app cannot ask for one.
    public func signOffer(user: String, productId: String, offerId: String, applicationUsername: String?, storeKit: StoreKitMode,
                          _ completion: @escaping (Result<OfferSignature, BackendError>) -> Void) {
        completion(.failure(.http(404)))
    }
}

/// What the client loads for a user at login: a page of the backlog, never the whole of it.
public struct UserSnapshot: Sendable, Equatable {
    /// The first page of the user's pending orders in queue order, then every order of theirs with a verdict that waits
    /// for the store to finish it (a crash came between the two).
    public var pending: [PendingOrder]
    /// How many pending orders the user has in all.
    public var pendingTotal: Int
    /// Every user's payment intents: who paid, when `applicationUsername` comes back empty or the order is missing (C3, I3).
    public var paymentIntents: [PaymentIntent]

    public init(pending: [PendingOrder] = [], pendingTotal: Int? = nil, paymentIntents: [PaymentIntent] = []) {
        self.pending = pending
        self.pendingTotal = pendingTotal ?? pending.reduce(0) { $0 + ($1.status == .pending ? 1 : 0) }
        self.paymentIntents = paymentIntents
    }
}

/// A page of one user's pending orders in queue order, with how many there are in all.
public struct PendingPage: Sendable, Equatable {
    public var orders: [PendingOrder]
    public var total: Int

    public init(orders: [PendingOrder], total: Int) {
        self.orders = orders
        self.total = total
    }
}

/// A transaction some user's store on this device already holds: whose, and how far it got. Delivered with the
/// store's news, so that the client never keeps every held id in memory to avoid claiming one twice (C7).
public struct HeldOrder: Sendable, Equatable {
    public let user: String
    public let status: PendingOrder.Status

    public init(user: String, status: PendingOrder.Status) {
        self.user = user
        self.status = status
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
    /// The Apple ID signed in when it was written (nil: each app user's own): its payment shows in the device's queue
    /// only while that Apple ID is signed in, and is judged only then.
    public let appleId: String?
    /// StoreKit 2: the `appAccountToken` its payment carries, the buyer's; it names this intent's user on the transaction.
    public let appAccountToken: UUID?

    public init(id: Int64, user: String, productId: String, orderId: String?, createdAt: Date, interrupted: Bool = false, appleId: String? = nil,
                appAccountToken: UUID? = nil) {
        self.id = id
        self.user = user
        self.productId = productId
        self.orderId = orderId
        self.createdAt = createdAt
        self.interrupted = interrupted
        self.appleId = appleId
        self.appAccountToken = appAccountToken
    }
}

/// The client's per-user persistent store (the "keychain": survives reinstall).
public protocol ClientVault: AnyObject {
    /// The user's first `pageSize` pending orders, the orders with a verdict, and every open intent.
    func snapshot(user: String, pageSize: Int) throws -> UserSnapshot
    /// The user's pending orders that follow `after` in queue order, at most `limit`, and how many there are in all.
    func pendingPage(user: String, after: PendingOrder?, limit: Int) throws -> PendingPage
    /// Which of these transactions some user's store already holds.
    func held(_ transactionIds: [String]) throws -> [String: HeldOrder]
    /// Writes the order (closing the intent it was claimed by, in the same write), then reads it back; throws when
    /// either fails (C2).
    func save(_ order: PendingOrder, closingIntent: Int64?) throws
    /// Writes an open intent before paying and answers it with its id.
    /// `appleId`: the Apple ID signed in on the device as it pays (nil: each app user's own).
    func recordIntent(user: String, productId: String, orderId: String?, appleId: String?, appAccountToken: UUID?, at date: Date) throws -> PaymentIntent
    /// Its payment failed, was cancelled, or never reached the store.
    func closeIntent(_ id: Int64) throws
    func markIntentInterrupted(_ id: Int64) throws
    /// Drops a finished order.
    func remove(transactionId: String, user: String) throws
    func lastUser() throws -> String?
    func setLastUser(_ user: String?) throws
}
