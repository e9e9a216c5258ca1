import AppleVocabulary
import Foundation
import GRDB

/// Apple's other answers to a customer's refund request: turned down (the purchase stands), or granted and later
/// taken back after a dispute (what the refund ended runs again). Each is told to the app's server in the same database
/// transaction as the change it tells of.
extension StoreDatabase {
    /// Apple declines the refund of a paid, unrefunded charge: nothing changes but what the app's server is told. Nil when
    /// there is no such charge.
    func declineRefund(_ named: String, because customer: ConsumptionRequestReason, at date: Date) throws -> (StoreRecord, StoreNotification)? {
        try queue.writeTransaction { db in
            guard let id = try Self.charge(db, repeatedBy: named), let row = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT \(Self.columns) FROM storeTransaction WHERE id = ? AND state IN ('purchased', 'restored') AND cancellationDate IS NULL
                """), arguments: [id]) else { return nil }
            try Self.noteClock(db, date)
            let record = StoreRecord(row)
            var news = StoreNotification(.refundDeclined, account: record.account, productId: record.transaction.productId, transactionId: id,
                                         originalTransactionId: record.transaction.originalId, date: date)
            news.refundRequestReason = customer
            try askBeforeDeciding(db, about: id, because: customer, at: date)
            try enqueue(db, news)
            return (record, news)
        }
    }

    /// Apple reverses a refund it granted: the charge loses its cancellation, and a subscription the refund ended runs to
    /// the end of its period again (renewing then, if it was set to). Nil when the charge was not refunded.
    func reverseRefund(_ named: String, at date: Date) throws -> (StoreRecord, StoreNotification)? {
        try queue.writeTransaction { db in
            guard let id = try Self.charge(db, repeatedBy: named), let row = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT \(Self.columns), \(TransactionDetails.columns) FROM storeTransaction
                WHERE id = ? AND state IN ('purchased', 'restored') AND cancellationDate IS NOT NULL AND cancellationReason IS NOT NULL
                """), arguments: [id]) else { return nil }
            try Self.noteClock(db, date)
            let record = StoreRecord(row)
            var details = TransactionDetails(row: row)
            details.cancellationDate = nil
            details.cancellationReason = nil
            try Self.setDetails(db, id, details)
            var expires: Date?
            if let chain = try Self.subscription(db, original: record.transaction.originalId)?.reinstated() {
                try chain.insert(db, onConflict: .replace)
                expires = chain.expiresAt
            }
            let news = StoreNotification(.refundReversed, account: record.account, productId: record.transaction.productId, transactionId: id,
                                         originalTransactionId: record.transaction.originalId, expiresDate: expires, date: date)
            try enqueue(db, news)
            return (record, news)
        }
    }

    /// The account's latest refunded charge (what `refund-reverse` without a transaction reverses).
    func latestRefunded(account: String) throws -> String? {
        try queue.inDatabase { db in
            try String.fetchOne(db.cachedStatement(sql: """
                SELECT id FROM storeTransaction WHERE account = ? AND state = 'purchased' AND cancellationDate IS NOT NULL
                AND cancellationReason IS NOT NULL AND sharedFrom IS NULL ORDER BY cancellationDate DESC, CAST(id AS INTEGER) DESC LIMIT 1
                """), arguments: [account])
        }
    }
}
