import Foundation

/// Who paid for a transaction (I3, C3), decided only by evidence about that very payment, in this order:
/// 1. the payment the app itself added in this process (the purchase in flight claims only the transaction its own
///    payment produced, never one that merely has the same product; an interrupted payment's second half, the intent of
///    the payment it completes); likewise a transaction restored by the restore
///    this device asked for in this process belongs to the user who asked (the store restores to their account);
/// 2. the order id in `applicationUsername`, through the intent recorded with that order; in StoreKit 2, whose purchase
///    carries no string of the app's, the `appAccountToken`, through the intents recorded with it;
/// 3. with no order id on it (the backend was down, or `applicationUsername` came back empty): the open intents for
///    the product recorded no later than the transaction, when they all belong to one user: that user (an intent is closed when its payment is claimed, fails or is cancelled, and is never matched to a
///    payment older than itself);
/// 4. an order id or a token no intent names: the backend knows whose it is and credits them, so the logged-in user may
///    carry it; likewise a transaction that cannot be a new payment (a restore, a renewal or another charge of a chain
///    the store holds already), which the backend credits to the original's owner or the chain's subscriber;
/// 5. no order id and no user with any open intent for the product: the logged-in user, as the seeds assume.
/// Anything else is unattributable: it waits unclaimed, with an alarm, for support. Never guessed.
public enum Attribution: Equatable, Sendable {
    case buyer(user: String, orderId: String?, intent: Int64?)
    /// Nobody is logged in to carry it; the next login decides.
    case awaitingLogin
    /// Several users have open intents that could be this payment.
    case unattributable(candidates: [String])
}

extension Device {
    /// Who paid for `transaction`, with `user` logged in (nil: nobody).
    public func attribute(_ transaction: StoreTransaction, loggedIn user: String?) -> Attribution {
        let orderId = transaction.applicationUsername.flatMap { $0.isEmpty ? nil : $0 }
        // 1. Our own payment, known by its identity: the one in flight, or an earlier one of this run whose intent is
        // still open (an interrupted payment's second half carries the payment it completes).
        if let paid = transaction.paymentId {
            if let current = purchase, current.paymentId == paid {
                let intent = paymentIntents.first { $0.id == paid }
                return .buyer(user: current.user, orderId: orderId ?? intent?.orderId, intent: paid)
            }
            if let intent = paymentIntents.first(where: { $0.id == paid }) {
                return .buyer(user: intent.user, orderId: orderId ?? intent.orderId, intent: paid)
            }
        }
        // 1. Our own restore.
        if let restorer = restorer(of: transaction) {
            return .buyer(user: restorer, orderId: orderId, intent: nil)
        }
        // 2. The order id, through the intent written with it.
        if let orderId, let intent = paymentIntents.first(where: { $0.orderId == orderId }) {
            return .buyer(user: intent.user, orderId: orderId, intent: intent.id)
        }
        if let token = transaction.appAccountToken {
            // 2. StoreKit 2: the token, through the intents written with it (its user's, for this product, before it).
            if let chosen = Self.likeliest(possibleIntents(of: transaction).filter { $0.appAccountToken == token }) {
                return .buyer(user: chosen.user, orderId: chosen.orderId, intent: chosen.id)
            }
            // 4. The backend credits the token's user; any logged-in user may carry it there.
            return user.map { .buyer(user: $0, orderId: orderId, intent: nil) } ?? .awaitingLogin
        }
        if let orderId {
            // 4. The backend credits the order's owner; any logged-in user may carry it there.
            return user.map { .buyer(user: $0, orderId: orderId, intent: nil) } ?? .awaitingLogin
        }
        if !transaction.mayBeNewPayment {
            // 4. A restore or a charge of a chain the store already holds (a renewal above all) is not the payment of any
            // intent: the backend credits the original's owner or the chain's subscriber, so any logged-in user may carry it.
            return user.map { .buyer(user: $0, orderId: nil, intent: nil) } ?? .awaitingLogin
        }
        // 3. The open intents that could be this payment.
        let candidates = possibleIntents(of: transaction)
        let buyers = Set(candidates.map(\.user))
        if buyers.count == 1, let chosen = Self.likeliest(candidates) {
            return .buyer(user: chosen.user, orderId: chosen.orderId, intent: chosen.id)
        }
        if buyers.count > 1 { return .unattributable(candidates: buyers.sorted()) }
        // 5. Only when nobody has an open intent for the product.
        if paymentIntents.contains(where: { $0.productId == transaction.productId }) {
            return .unattributable(candidates: Set(paymentIntents.filter { $0.productId == transaction.productId }.map(\.user)).sorted())
        }
        return user.map { .buyer(user: $0, orderId: nil, intent: nil) } ?? .awaitingLogin
    }

    /// Of one user's intents that could be a payment, the one it closes: an interrupted payment's, the oldest first (nothing
    /// else ever closes it: it never goes stale), else the latest (a payment follows its own intent at once). Whichever
    /// order the user's transactions arrive in, each still finds one of them, and the credit is the same user's.
    private static func likeliest(_ intents: [PaymentIntent]) -> PaymentIntent? {
        intents.filter(\.interrupted).min(by: recordedEarlier) ?? intents.max(by: recordedEarlier)
    }

    private static func recordedEarlier(_ one: PaymentIntent, _ other: PaymentIntent) -> Bool {
        (one.createdAt, one.id) < (other.createdAt, other.id)
    }

    /// Who asked for the restore this device is running, when it brought `transaction` back: before the store answers, any
    /// restored transaction not from a payment, unless another Apple ID signed in meanwhile; after, the ones it named.
    public func restorer(of transaction: StoreTransaction) -> String? {
        guard transaction.state == .restored, transaction.paymentId == nil, let restore,
              restore.restored?.contains(transaction.id) ?? !restore.appleIdChanged
        else { return nil }
        return restore.user
    }

    /// The open intents a failed transaction came from, by what ties them to that very payment: its identity or its
    /// order id. Without either nothing is closed (the only intent that could be it may belong to a payment still on
    /// its way); the next login closes whichever proves stale. An interrupted payment without either keeps all of its
    /// one user's possible intents open for its second half.
    public func intentsOfFailed(_ transaction: StoreTransaction) -> [PaymentIntent] {
        if let paid = transaction.paymentId, let intent = paymentIntents.first(where: { $0.id == paid }) { return [intent] }
        if let orderId = transaction.applicationUsername.flatMap({ $0.isEmpty ? nil : $0 }) {
            return paymentIntents.filter { $0.orderId == orderId }
        }
        let candidates = possibleIntents(of: transaction)
        return transaction.error == .interrupted && Set(candidates.map(\.user)).count == 1 ? candidates : []
    }

    /// Open intents for the product recorded no later than the transaction.
    func possibleIntents(of transaction: StoreTransaction) -> [PaymentIntent] {
        guard transaction.mayBeNewPayment else { return [] }
        // The queue shows the signed-in Apple ID's transactions only: an intent paid with another cannot be theirs.
        return paymentIntents.filter { $0.productId == transaction.productId && $0.precedes(transaction) && $0.appleId == appleId }
    }

    /// Intents whose payment never reached the store (the app died before paying) or failed and was finished before
    /// the intent could be closed: at login the store's whole queue is known (C1), and nothing in it that is still
    /// nobody's could be theirs. An interrupted payment's intent waits for its second half.
    /// `orders`: the logged-in user's, which hold transactions of theirs.
    public func staleIntents(orders: [String: PendingOrder]) -> [PaymentIntent] {
        paymentIntents.filter { intent in
            // One paid with another Apple ID than the one signed in waits: its payment is not in the queue shown now.
            intent.appleId == appleId && !intent.interrupted && purchase?.paymentId != intent.id && !storeQueue.values.contains { transaction in
                !claimed.contains(transaction.id) && orders[transaction.id] == nil && transaction.mayBeNewPayment
                    && transaction.productId == intent.productId && intent.precedes(transaction)
                    && (transaction.applicationUsername.map { $0.isEmpty || $0 == intent.orderId } ?? true)
                    && (transaction.appAccountToken.map { $0 == intent.appAccountToken } ?? true)
            }
        }
    }
}

extension PaymentIntent {
    /// Recorded no later than the transaction: a payment follows its intent at once, and a date read back from a
    /// database may differ from the one written in its last bit, so within a millisecond counts as before.
    func precedes(_ transaction: StoreTransaction) -> Bool {
        createdAt.timeIntervalSince(transaction.date) <= 0.001
    }
}
