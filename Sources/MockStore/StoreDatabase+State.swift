import AppleVocabulary
import Foundation
import GRDB
import IAPCore

/// One subscription chain as `iapsim state` shows it: what StoreKit reports, with what Apple's renewal info says.
public struct SubscriptionSnapshot: Sendable, Equatable {
    public let account: String
    public let status: SubscriptionStatus
    /// The current period's end (`expires_date_ms` of the latest charge).
    public let expiresAt: Date
    /// What its renewal will do, as `verifyReceipt`'s `pending_renewal_info` says it.
    public let renewal: PendingRenewalInfo
}

/// What `iapsim state` reads of the store through its own read-only connection, with the store's own rules, so that
/// the report says what the app would.
extension StoreDatabase {
    /// Every chain, ordered by account and group; none in a file written before subscriptions.
    public static func subscriptionSnapshots(_ db: Database) throws -> [SubscriptionSnapshot] {
        guard try db.tableExists("subscription") else { return [] }
        return try SubscriptionRecord.all(db).map { chain in
            SubscriptionSnapshot(account: chain.account, status: chain.status(offer: try details(db, chain.latestTransactionId).offer),
                                 expiresAt: chain.expiresAt, renewal: PendingRenewalInfo(chain))
        }
    }

    /// The store's clock as it last acted or was last noted; nil in a file written before the store kept it.
    public static func clock(_ db: Database) throws -> Date? {
        try Double.fetchOne(db, sql: "SELECT CAST(value AS REAL) FROM meta WHERE key = 'clock'").map(Date.init(timeIntervalSince1970:))
    }
}
