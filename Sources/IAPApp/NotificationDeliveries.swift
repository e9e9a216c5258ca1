import Foundation
import IAPUI
import MockStore

extension NotificationDelivery {
    /// An outbox entry as the inspector and the timeline tell it.
    public init(_ entry: OutboxEntry) {
        let state: State = switch (entry.delivery, entry.detour) {
        case (.notSent, _): .notSent
        case (.sent, .lost): .lost
        case (.sent, .twice) where entry.attempts >= 2: .deliveredTwice
        case (.sent, _): .sent(retries: entry.retries)
        case (.failed, _): .failed(retries: entry.retries)
        case (.pending, .outOfOrder) where entry.attempts == 0: .heldBack(until: entry.nextAttemptAt ?? .distantFuture)
        case (.pending, .delayed) where entry.attempts == 0: .delayed(until: entry.nextAttemptAt ?? .distantFuture)
        case (.pending, _):
            if entry.attempts == 0 { .sending }
            else { .retrying(retry: entry.attempts, of: NotificationRetries.count, next: entry.nextAttemptAt ?? .distantFuture) }
        }
        let notification = entry.notification
        self.init(type: notification.kind.rawValue, subtype: notification.subtype?.rawValue, transactionId: notification.transactionId,
                  uuid: notification.uuid, state: state, lastError: entry.delivery == .sent ? nil : entry.lastError)
    }
}
