import Foundation

/// BLIAP's verify manager for the logged-in user: which pending order is verified next, and when (C4, C10). The
/// verify task itself (one at a time on the device) is the runtime's; this decides only what it is given.
public struct VerifyQueue: Sendable, Equatable {
    /// Orders the user put off with Later; the next trigger wakes them.
    public var snoozed: Set<String> = []
    /// Automatic attempts since the last trigger, per order (C10).
    public var triesSinceTrigger: [String: Int] = [:]
    /// Orders the backend could not verify for a fault in its own setup: asking again every few seconds changes
    /// nothing, so no trigger wakes them; a new session (the next launch or login) or the user's Continue does.
    public var held: Set<String> = []
    /// An order the user asked to continue now.
    public var priority: String?

    public init() {}

    public enum Next: Sendable, Equatable {
        case verify(PendingOrder)
        /// Nothing is due before this.
        case wake(Date)
        case idle
    }

    /// Launch, login, a new purchase, network back, foreground: every order gets its quick retries again.
    public mutating func trigger() {
        triesSinceTrigger = [:]
        snoozed = []
    }

    /// The user chose Continue: this order goes next, with its quick retries again.
    public mutating func continueNow(_ id: String) {
        snoozed.remove(id)
        held.remove(id)
        triesSinceTrigger[id] = 0
        priority = id
    }

    /// The user chose Later: the order waits for the next trigger.
    public mutating func putOff(_ id: String) {
        snoozed.insert(id)
    }

    /// The backend keeps the request and asks Apple itself: the order is polled at its back-off, its quick retries
    /// unspent (seed 003), until the backend has decided.
    public mutating func keepPolling(_ id: String) {
        triesSinceTrigger[id] = 1
    }

    /// The backend's setup is wrong: the order waits for the next session.
    public mutating func hold(_ id: String) {
        held.insert(id)
    }

    /// The order is done with.
    public mutating func forget(_ id: String) {
        triesSinceTrigger[id] = nil
        snoozed.remove(id)
        held.remove(id)
    }

    /// When the order will be tried again automatically, if it will: one put off or held waits for a trigger or a
    /// session instead.
    public func nextAttempt(for order: PendingOrder, policy: VerifyPolicy) -> Date? {
        let id = order.transactionId
        guard !snoozed.contains(id), !held.contains(id) else { return nil }
        return policy.nextAttempt(for: order, triesSinceTrigger: triesSinceTrigger[id] ?? 0)
    }

    /// The order to verify now (counted as tried), else when the next one is due. `asked`: orders still waiting for
    /// the user's answer, which the queue does not touch (C8).
    public mutating func pump(_ orders: [String: PendingOrder], asked: [String], policy: VerifyPolicy, now: Date) -> Next {
        if let id = priority {
            priority = nil
            if let order = orders[id], order.status == .pending, !held.contains(id) { return start(order) }
        }
        var ready: PendingOrder?
        var earliest: Date?
        let waiting = Set(asked)
        for order in orders.values where order.status == .pending {
            let id = order.transactionId
            guard !waiting.contains(id), let due = nextAttempt(for: order, policy: policy) else { continue }
            if due <= now {
                if ready.map({ VerifyPolicy.precedes(order, $0) }) ?? true { ready = order }
            } else if earliest.map({ due < $0 }) ?? true {
                earliest = due
            }
        }
        if let ready { return start(ready) }
        return earliest.map(Next.wake) ?? .idle
    }

    private mutating func start(_ order: PendingOrder) -> Next {
        triesSinceTrigger[order.transactionId, default: 0] += 1
        return .verify(order)
    }
}
