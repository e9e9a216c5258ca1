import Foundation
import IAPCore

/// Apple's delivery of the outbox, as far as it is the store's: what is due, and the notification fault that befalls
/// each. The `--notify` sender posts what is due over HTTP; with `--server-api` the built-in backend is the team's
/// server and takes it in process, the same faults and retries befalling it.
extension MockPaymentQueue {
    /// The notifications due by now, oldest first, each having met the notification fault armed at its first attempt,
    /// if one is (one fault a notification). One held back or delayed is not due now: it is left out, due later.
    public func takeDueNotifications(limit: Int) -> [OutboxEntry] {
        let now = scheduler.now
        return (attempt { try database.dueNotifications(now: now, limit: limit) } ?? []).compactMap { entry in
            guard entry.attempts == 0, entry.detour == nil, let (detour, delay) = firedDetour(),
                  let changed = attempt({ try database.setDetour(detour, on: entry.notification.uuid, delay: delay, at: now) }) ?? nil
            else { return entry }
            return (changed.nextAttemptAt ?? .distantPast) <= now ? changed : nil
        }
    }

    /// In the README's order (twice, out of order, lost, delayed), a one-shot fault before an unlimited one: armed beside
    /// it, it is meant for the next notification, which the unlimited one would otherwise always take.
    private func firedDetour() -> (OutboxEntry.Detour, TimeInterval)? {
        let order: [Fault] = [.notificationTwice, .notificationOutOfOrder, .notificationLost, .notificationDelayed]
        let once = { (fault: Fault) in self.faults.armed.arm(fault)?.once == true }
        for fault in order.filter(once) + order.filter({ !once($0) }) where faults.isArmed(fault) {
            switch fault {
            case .notificationTwice: if faults.fire(fault) != nil { return (.twice, 0) }
            // One held back at a time: the next one is what passes it.
            case .notificationOutOfOrder:
                if !(attempt { try database.isHoldingBack() } ?? true), faults.fire(fault) != nil { return (.outOfOrder, 0) }
            case .notificationLost: if faults.fire(fault) != nil { return (.lost, 0) }
            default: if let seconds = faults.fire(fault).flatMap(Double.init) { return (.delayed, seconds) }
            }
        }
        return nil
    }

    /// `--server-api`: hands the built-in backend what is due of the outbox, as Apple posts it to a team's server. One
    /// lost on the way is counted delivered and never reaches it; one delivered twice reaches it twice; one it does not
    /// take (the backend down) is retried on Apple's schedule, on the store's clock. Each attempt is written down as the
    /// `--notify` sender's are, so the inspector and Notification History tell it alike.
    func deliverDueToBackend() {
        guard let onNotification else { return }
        var due = takeDueNotifications(limit: 16)
        while !due.isEmpty {
            for entry in due {
                let notification = entry.notification
                let failure = entry.detour == .lost ? nil : onNotification(notification)
                guard let recorded = attempt({ try database.recordAttempt(notification.uuid, signedPayload: nil, failure: failure, at: scheduler.now) })
                        ?? nil else { return }
                onBackendAttempt(recorded)
                if failure == nil, entry.detour != .lost { _ = attempt { try database.heardByBackend([notification.uuid]) } }
                if entry.detour == .twice, failure == nil, onNotification(notification) == nil,
                   let again = attempt({ try database.recordAttempt(notification.uuid, signedPayload: nil, failure: nil, at: scheduler.now, again: true) })
                        ?? nil {
                    onBackendAttempt(again)
                }
            }
            // A delivery may have let one held back go: it is due now.
            due = takeDueNotifications(limit: 16)
        }
        scheduleDelivery()
    }

    /// One timer, on the store's clock, for the next attempt due (a retry, one delayed or held back).
    private func scheduleDelivery() {
        guard let next = attempt({ try database.nextNotificationDue() }) ?? nil else { return }
        deliveryTimer.set(next, on: scheduler) { [weak self] _ in self?.deliverDueToBackend() }
    }
}
