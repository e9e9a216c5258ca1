import Foundation

/// How the verify queue orders, paces and gives up on automatic retries (C4, C10).
public struct VerifyPolicy: Sendable, Equatable {
    /// Back-off after the n-th failed attempt is n × step, capped.
    public var step: Double
    public var cap: Double
    /// Automatic retries after a trigger; past them only a new trigger retries (C10).
    public var quickRetries: Int
    /// Attempts at which the client raises an alarm.
    public var alarmThreshold: Int

    public init(step: Double = 3, cap: Double = 30, quickRetries: Int = 5, alarmThreshold: Int = 10) {
        self.step = step
        self.cap = cap
        self.quickRetries = quickRetries
        self.alarmThreshold = alarmThreshold
    }

    public func backoff(afterAttempts attempts: Int) -> Double {
        min(Double(attempts) * step, cap)
    }

    /// When the order may be tried again automatically; nil when it waits for a trigger.
    public func nextAttempt(for order: PendingOrder, triesSinceTrigger: Int) -> Date? {
        guard triesSinceTrigger < quickRetries else { return nil }
        guard triesSinceTrigger > 0, let last = order.lastAttemptAt else { return .distantPast }
        return last.addingTimeInterval(backoff(afterAttempts: order.attempts))
    }

    /// Never-verified first, then fewest attempts, then oldest purchase.
    public static func precedes(_ a: PendingOrder, _ b: PendingOrder) -> Bool {
        queueKey(a) < queueKey(b)
    }

    /// The queue order as a plain tuple: sorting thousands of these is cheap, sorting the orders themselves
    /// copies every field at each comparison (half of a 10,000-order login).
    public static func queueKey(_ order: PendingOrder) -> (Int, Double, String) {
        (order.attempts, order.purchasedAt.timeIntervalSince1970, order.transactionId)
    }
}
