import AppleVocabulary
import Foundation
import GRDB
import IAPCore

/// What a notification carries, as Apple's records stood when the store wrote it: Apple signs a notification when the
/// event happens, and a retry or Notification History hands out what was signed then, not the records of a later day.
public struct NotificationContent: Codable, Equatable, Sendable {
    public var transaction: JWSTransaction?
    public var renewal: JWSRenewalInfo?
    /// The subscription's status then: 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked.
    public var status: Int?

    public init(transaction: JWSTransaction? = nil, renewal: JWSRenewalInfo? = nil, status: Int? = nil) {
        self.transaction = transaction
        self.renewal = renewal
        self.status = status
    }

    /// The records as they stand at `date`, signed then: inside the write transaction that made the change
    /// `notification` tells of, after the change. Nil when the store was opened without its catalog (a tool's
    /// reading), which Apple's records need to name a product's kind and price. `record`: a transaction as the same
    /// write transaction has just read it, not read again when the notification is about it.
    static func taken(_ db: Database, _ notification: StoreNotification, at date: Date, catalog: [String: Product],
                      knowing record: AppleTransaction? = nil) throws -> NotificationContent? {
        guard !catalog.isEmpty else { return nil }
        guard notification.kind != .test, notification.summary == nil else { return NotificationContent() }
        let original = notification.originalTransactionId
        // Only an auto-renewable subscription has a chain: a charge for any other product carries none to look for.
        let chainless = original.isEmpty || catalog[notification.productId].map { $0.subscription == nil } == true
        let chain = chainless ? nil : try AppleRecords.subscription(db, original: original, at: date, catalog: catalog)
        // A notification about a subscription as a whole (auto-renew turned off, an expiry) carries its latest charge.
        let charge = try notification.transactionId.flatMap { id in
            try record.flatMap { $0.entry.transaction_id == id ? $0 : nil } ?? AppleRecords.transaction(db, id, catalog: catalog)
        } ?? chain?.latest
        return NotificationContent(transaction: charge.map { JWSTransaction($0, signedAt: date) }, renewal: chain.map { JWSRenewalInfo($0, signedAt: date) },
                                   status: chain?.state.appleStatus)
    }
}
