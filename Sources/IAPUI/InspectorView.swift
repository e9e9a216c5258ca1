import Foundation
import IAPCore

/// What the inspector shows beside the app's own state: the parties' records, read by the host.
public struct InspectorView: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public let at: Date
        public let text: String

        public init(at: Date, text: String) {
            self.at = at
            self.text = text
        }
    }

    /// The store's unfinished queue (first few), and how many it holds.
    public var storeQueue: [StoreTransaction] = []
    public var storeTotal = 0
    /// The app user whose keychain holds each of those transactions, where one does: it waits for them.
    public var holders: [String: String] = [:]
    /// StoreKit 2: `Transaction.currentEntitlements`, what the Apple ID owns as the device reads it (nil in StoreKit 1).
    public var entitlements: [(id: String, productId: String)]?
    /// The user's latest credits on the backend, and how many there are.
    public var credits: [(transactionId: String, productId: String, coins: Int)] = []
    public var creditTotal = 0
    /// Set when the credits are a team's own server's (`--backend URL`): the inspector names it instead of listing them.
    public var creditsKeptAt: String?
    /// What support watches on the built-in backend, under its credits.
    public var support: [SupportLine] = []
    /// Newest last.
    public var timeline: [Entry] = []
    /// What the timeline's times count from: its first line, which it may no longer keep.
    public var timelineOrigin: Date?
    /// The latest App Store Server Notifications and how their delivery went, newest last.
    public var notifications: [NotificationDelivery] = []

    public init() {}

    public enum SupportLine: Sendable, Equatable {
        /// The backend keeps asking Apple (its own queue).
        case retryingApple(transactionId: String, attempts: Int, status: Int)
        /// An alarm a client uploaded.
        case clientAlarm(kind: String, user: String?, text: String)
        /// A receipt sent again for a decided transaction.
        case replay(transactionId: String, by: String, first: String)
        /// A payment nothing on the device attributed: what Apple's records and the app's orders say of it (A3).
        case unclaimed(SupportCase)
        /// The restore policy moved or shared a purchase from one app user to another (A2).
        case moved(productId: String, from: String, to: String, policy: String)
    }

    public static func == (a: InspectorView, b: InspectorView) -> Bool {
        a.storeQueue == b.storeQueue && a.storeTotal == b.storeTotal && a.holders == b.holders && a.creditTotal == b.creditTotal && a.creditsKeptAt == b.creditsKeptAt
            && a.credits.map(\.transactionId) == b.credits.map(\.transactionId) && a.timeline == b.timeline && a.timelineOrigin == b.timelineOrigin
            && a.notifications == b.notifications && a.support == b.support && a.entitlements?.map(\.id) == b.entitlements?.map(\.id)
    }
}
