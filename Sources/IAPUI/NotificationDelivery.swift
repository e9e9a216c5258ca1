import Foundation

/// One App Store Server Notification as the inspector shows it: what Apple told the team's server (`--notify`) and how
/// its delivery went. Plain values: the host reads them from the store's outbox.
public struct NotificationDelivery: Sendable, Equatable {
    public enum State: Sendable, Equatable {
        /// Written while no `--notify` server was given: the built-in backend heard it, nothing went out.
        case notSent
        /// Not tried yet.
        case sending
        /// Refused `retries` times so far (`retries` of Apple's five used up); tried again at `next` on the store's clock.
        case retrying(retry: Int, of: Int, next: Date)
        /// Taken (2xx) after `retries` retries.
        case sent(retries: Int)
        /// Refused on the first attempt and on every retry.
        case failed(retries: Int)
        /// A notification fault's doing (`--fault notification-…`).
        case deliveredTwice
        /// Apple counts it delivered; the server never saw it.
        case lost
        /// Held back until a later one is delivered, or `until` at the latest.
        case heldBack(until: Date)
        /// Its first attempt comes late, at `until`.
        case delayed(until: Date)
    }

    public let type: String
    public let subtype: String?
    public let transactionId: String?
    public let uuid: String
    public let state: State
    /// Why the last attempt failed ("HTTP 500", "connection refused").
    public let lastError: String?

    public init(type: String, subtype: String?, transactionId: String?, uuid: String, state: State, lastError: String?) {
        self.type = type
        self.subtype = subtype
        self.transactionId = transactionId
        self.uuid = uuid
        self.state = state
        self.lastError = lastError
    }
}
