import Foundation
import GRDB

/// What a server that learns from notifications (`--server-api`) keeps of them besides their effects (which it has
/// applied, how far it has read Apple's Notification History for those that never reached it), and how it sets what it
/// grants to what Apple's records say now, whatever order the notifications came in.
extension BackendDatabase {
    /// Whether the notification with this notificationUUID was applied already.
    public func hasApplied(_ uuid: String) throws -> Bool {
        try queue.inDatabase { db in
            try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM appliedNotification WHERE uuid = ?)"), arguments: [uuid]) ?? false
        }
    }

    /// Until when Notification History was read; nil when it never was.
    func notificationHistoryRead() throws -> Date? {
        try queue.inDatabase { db in
            try Int64.fetchOne(db.cachedStatement(sql: "SELECT value FROM meta WHERE key = 'notificationHistoryReadTo'"))
                .map { Date(timeIntervalSince1970: Double($0) / 1000) }
        }
    }

    func noteNotificationHistoryRead(to date: Date) throws {
        try queue.writeTransaction { db in
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('notificationHistoryReadTo', ?)")
                .execute(arguments: [Int64((date.timeIntervalSince1970 * 1000).rounded(.down))])
        }
    }

    /// Sets a known entitlement to the chain as Apple has it now; one the backend does not know yet waits for its first
    /// charge's credit.
    func match(entitlement original: String, productId: String, expiresAt: Date, graceUntil: Date?, revokedAt: Date?) throws {
        try queue.writeTransaction { db in
            try db.cachedStatement(sql: "UPDATE entitlement SET productId = ?, expiresAt = ?, graceUntil = ?, revokedAt = ? WHERE originalTransactionId = ?")
                .execute(arguments: [productId, expiresAt.timeIntervalSince1970, graceUntil?.timeIntervalSince1970, revokedAt?.timeIntervalSince1970, original])
        }
    }

    /// Sets the credit of a charge refunded as of `cancelledAt`, or live when Apple no longer counts it refunded: the
    /// credit of `id`, or of its web order line item whichever transaction of it brought the credit (a subscription's
    /// charge); not the chain's other charges.
    func match(refundOf id: String, webOrder: String?, cancelledAt: Date?) throws {
        try queue.writeTransaction { db in
            try db.cachedStatement(sql: """
                UPDATE credit SET revokedAt = CASE WHEN ?1 IS NULL THEN NULL ELSE COALESCE(revokedAt, ?1) END
                WHERE transactionId = ?2 OR webOrderLineItemId = ?3
                """).execute(arguments: [cancelledAt?.timeIntervalSince1970, id, webOrder])
        }
    }

    /// The user's latest order for `productId` placed by `date` that no credit took: the order a payment Apple told of
    /// was most likely made for, and whether support settled it by hand.
    func openOrder(user: String, productId: String, placedBy date: Date) throws -> (id: String, compensated: Bool)? {
        try queue.inDatabase { db in
            try Row.fetchOne(db.cachedStatement(sql: Self.openOrderQuery), arguments: [user, productId, date.timeIntervalSince1970])
                .map { ($0["id"], $0["compensated"]) }
        }
    }

    static let openOrderQuery = """
        SELECT id, compensatedAt IS NOT NULL AS compensated FROM orders o WHERE user = ? AND productId = ? AND createdAt <= ?
        AND NOT EXISTS (SELECT 1 FROM credit WHERE orderId = o.id) ORDER BY createdAt DESC, id DESC LIMIT 1
        """
}
