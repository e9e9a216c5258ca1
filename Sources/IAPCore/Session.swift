import Foundation

/// The logged-in user's side of the app. It exists only while they are logged in: logging out drops it, so no other
/// user can reach their orders, prompts or retries (C7, I6).
public struct Session: Sendable, Equatable {
    public internal(set) var user: String
    /// The backend's account as last read: nothing owned before the first reading.
    public var account: Account {
        get { accountReading ?? Account() }
        set { accountReading = newValue }
    }
    /// The user's subscriptions as the store last reported them, one per group.
    public var subscriptions: [SubscriptionStatus] {
        get { subscriptionsReading ?? [] }
        set { subscriptionsReading = newValue }
    }
    /// The last readings as they came, nil until the first: what a new reading is news against.
    public internal(set) var accountReading: Account?
    public internal(set) var subscriptionsReading: [SubscriptionStatus]?
    /// The user's orders the core is working on, by transaction id: the pages of the backlog read so far (a page is
    /// read when the user has answered every order found at login in memory), the orders this session wrote, and
    /// those with a verdict waiting for the store. Never the whole backlog: every order not in memory is one found at
    /// login and not yet asked about.
    public var orders: [String: PendingOrder] = [:]
    /// How many pending orders the user has in all, in the client's store.
    public var pendingTotal = 0
    /// A page of the backlog has been asked for and not yet answered.
    public var pageRequested = false
    /// The last order of the last page read: the next page starts after it.
    public var pageEnd: PendingOrder?
    /// The login's look at the whole store queue (stale intents, verdicts to finish) waits for the reading to end.
    public var loginCheckDue = false
    /// Orders found at login that the user has not yet answered (C8), of those in memory.
    public var prompts: [String] = []
    public var queue = VerifyQueue()
    /// StoreKit 2: the user's `appAccountToken` as the backend gave it, asked for at the first purchase of the session.
    public var appAccountToken: UUID?

    /// How many pending orders a page holds.
    public static let pageSize = 64

    public init(user: String) {
        self.user = user
    }

    /// The ids of the pending orders in memory, in queue order.
    public var pendingIds: [String] {
        orders.values.compactMap { $0.status == .pending ? (VerifyPolicy.queueKey($0), $0.transactionId) : nil }
            .sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// How many pending orders are in memory.
    var pendingInMemory: Int {
        orders.values.reduce(0) { $0 + ($1.status == .pending ? 1 : 0) }
    }

    /// The next page, once every order found at login in memory has been answered and the backlog holds more.
    mutating func nextPageIfAnswered() -> Effect? {
        guard !pageRequested, prompts.isEmpty, pendingTotal > pendingInMemory else { return nil }
        pageRequested = true
        return .loadPendingPage(user: user, after: pageEnd)
    }

    /// Keeps the order in memory, counting a new pending one.
    public mutating func keep(_ order: PendingOrder) {
        let before = orders[order.transactionId]?.status
        if before == nil, order.status == .pending { pendingTotal += 1 }
        if before == .pending, order.status != .pending { pendingTotal -= 1 }
        orders[order.transactionId] = order
    }

    /// The order left the client's store.
    mutating func drop(_ id: String) {
        orders[id] = nil
        queue.forget(id)
    }
}
