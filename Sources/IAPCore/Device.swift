import Foundation

/// What this device knows whoever is logged in (BLIAP's payment manager and the screen's HUD): whether it can pay, the
/// purchase in flight, the notes of who is paying, the store's queue as its observer saw it, the verify task in
/// flight, and the alarms.
public struct Device: Sendable, Equatable {
    public var canMakePayments = true
    /// The Apple ID signed in on the device (Settings › App Store), which pays for whoever is logged in to the app (A1);
    /// nil: none was, and each app user pays with an Apple ID of their own name.
    public var appleId: String?
    public var purchase: AppState.Purchase?
    public var hud: HUD?
    public var alarms: [Alarm] = []
    /// Alarms not yet on the backend, each with when it was raised: sent at once, and again at the next trigger.
    public var unsentAlarms: [RaisedAlarm] = []
    /// Every user's open payment intents on this device: the evidence of who is paying (C3, I3).
    public var paymentIntents: [PaymentIntent] = []
    /// Transactions the store holds unfinished, as its observer has seen them, except those already in a user's
    /// pending backlog (the store's news says so: see `HeldOrder`).
    public var storeQueue: [String: StoreTransaction] = [:]
    /// The store's queue is being read a batch at a time: what depends on knowing all of it waits for the last batch.
    public var readingStoreQueue = false
    /// Paid transactions no user can be given yet: nobody is logged in, or the evidence names no single buyer.
    public var unclaimed: [StoreTransaction] = []
    /// Transactions this run wrote for some user, or saw held with a verdict: never claimed twice.
    public var claimed: Set<String> = []
    /// The order the verify task is working on: one at a time on the device, whoever is logged in.
    public var verifying: String?
    /// When the verify queue's next order falls due.
    public var wakeAt: Date?
    /// Restore Purchases under way, until every transaction it brought back is finished.
    public var restore: Restore?

    public init() {}

    public struct RaisedAlarm: Sendable, Equatable {
        public let alarm: Alarm
        public let at: Date
        public let user: String?
    }

    /// Keeps a paid transaction no one can be given yet (the latest news of it).
    mutating func hold(_ transaction: StoreTransaction) {
        if let index = unclaimed.firstIndex(where: { $0.id == transaction.id }) {
            unclaimed[index] = transaction
        } else {
            unclaimed.append(transaction)
        }
    }
}
