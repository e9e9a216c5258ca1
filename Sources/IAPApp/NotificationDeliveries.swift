import Foundation
import IAPUI
import MockStore

extension NotificationDelivery {
    /// An outbox entry as the inspector and the timeline tell it.
    public init(_ entry: OutboxEntry) {
        let state: State = switch entry.delivery {
        case .notSent: .notSent
        case .sent: .sent(retries: entry.retries)
        case .failed: .failed(retries: entry.retries)
        case .pending:
            if entry.attempts == 0 { .sending }
            else { .retrying(retry: entry.attempts, of: NotificationRetries.count, next: entry.nextAttemptAt ?? .distantFuture) }
        }
        let notification = entry.notification
        self.init(type: notification.kind.rawValue, subtype: notification.subtype?.rawValue, transactionId: notification.transactionId,
                  uuid: notification.uuid, state: state, lastError: entry.delivery == .sent ? nil : entry.lastError)
    }
}
