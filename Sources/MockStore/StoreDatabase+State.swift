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

/// One transaction as `iapsim state` reports it: as the store holds it, on the device whose queue it is in, and Apple's
/// receipt entry for a purchase or a restore.
public struct ReportedTransaction: Sendable {
    public let record: StoreRecord
    public let device: String
    public let entry: Receipt.Entry?
    /// Apple's customer order id, for a charge.
    public let appleOrderId: String?
    /// The consumption information a team's server last sent for it, as JSON.
    public let consumption: String?
    /// What the receipt has no field for: the win-back offer that priced the charge, and its month of a 12-month
    /// commitment.
    public var winBackOfferId: String?
    public var billingPeriod: Int?
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

    /// Every transaction, oldest first, with Apple's receipt fields for each purchase and restore. Also from a file the
    /// app has not migrated yet: a column a later version added reads as empty.
    public static func reportedTransactions(_ db: Database) throws -> [ReportedTransaction] {
        let chains = try db.tableExists(SubscriptionRecord.databaseTableName) ? try SubscriptionRecord.all(db) : []
        let groups = Dictionary(chains.map { ($0.originalTransactionId, $0.group) }, uniquingKeysWith: { first, _ in first })
        let rows = try Row.fetchAll(db, sql: "SELECT * FROM storeTransaction ORDER BY date, id")
        let dates = Dictionary(rows.map { ($0["id"] as String, Date(timeIntervalSince1970: $0["date"])) }, uniquingKeysWith: { first, _ in first })
        return rows.map { row in
            let transaction = transaction(row)
            let record = StoreRecord(row)
            let device = row.text("device") ?? firstDevice
            guard transaction.state == .purchased || transaction.state == .restored else {
                return ReportedTransaction(record: record, device: device, entry: nil, appleOrderId: nil, consumption: nil)
            }
            let original = transaction.originalId
            let details = TransactionDetails(row: row)
            let listed = ReceiptRow(transaction: transaction, details: details, originalDate: dates[original] ?? transaction.date)
            var reported = ReportedTransaction(record: record, device: device, entry: Receipt.Entry(listed, group: groups[original]),
                                               appleOrderId: row.text("appleOrderId"), consumption: row.text("consumption"))
            reported.winBackOfferId = details.offer == .winBack ? details.offerId : nil
            reported.billingPeriod = details.billingPeriod
            return reported
        }
    }

    /// The store's clock as it last acted or was last noted; nil in a file written before the store kept it.
    public static func clock(_ db: Database) throws -> Date? {
        try Double.fetchOne(db, sql: "SELECT CAST(value AS REAL) FROM meta WHERE key = 'clock'").map(Date.init(timeIntervalSince1970:))
    }
}
