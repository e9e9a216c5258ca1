import Foundation
import GRDB
import IAPCore

/// A verification the backend owes the client: Apple answered "try again" (seeds 000, 003), so the server keeps the
/// request and asks Apple again itself, with back-off, until Apple decides.
public struct AppleRetry: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "appleRetry"
    // Dates as numbers, as in every table of iapsim's: compared with numbers, and read back by `iapsim state`.
    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .timeIntervalSince1970 }
    public static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .timeIntervalSince1970 }

    public let transactionId: String
    public let user: String
    public let productId: String
    public let orderId: String?
    public let receipt: String
    /// StoreKit 2: the app user the signed transaction's appAccountToken names, when it names one of this server's.
    public var payer: String?
    /// StoreKit 2: the request came with a signed transaction that passed the server's check, so Apple is asked through
    /// the App Store Server API, not `verifyReceipt`.
    public var byServerAPI: Bool
    /// The app user pressed Buy or Restore for this very transaction (`VerifyRequest.claimsOwnership`): kept, so that
    /// the answer Apple gives later decides as the first request would have.
    public var claimsOwnership = false
    /// Apple's answers so far that asked to try again.
    public var attempts: Int
    public var lastStatus: Int
    public var nextAt: Date
    public let queuedAt: Date

    var request: VerifyRequest {
        VerifyRequest(receipt: receipt, transactionId: transactionId, productId: productId, orderId: orderId, user: user,
                      claimsOwnership: claimsOwnership ? true : nil)
    }
}

extension BackendDatabase {
    static func appleQueueMigration(_ db: Database) throws {
        try db.create(table: AppleRetry.databaseTableName) { table in
            table.primaryKey("transactionId", .text)
            table.column("user", .text).notNull()
            table.column("productId", .text).notNull()
            table.column("orderId", .text)
            table.column("receipt", .text).notNull()
            table.column("attempts", .integer).notNull()
            table.column("lastStatus", .integer).notNull()
            table.column("nextAt", .double).notNull().indexed()
            table.column("queuedAt", .double).notNull()
        }
    }

    /// Writes the request down (or its next attempt), durably before the client hears "pending".
    func keepForApple(_ retry: AppleRetry) throws {
        try queue.writeTransaction { db in try retry.save(db) }
    }

    func dropFromAppleQueue(_ transactionId: String) throws {
        try queue.writeTransaction { db in _ = try AppleRetry.deleteOne(db, key: transactionId) }
    }

    /// Apple's last answer on a request the server keeps asking Apple about; nil when it keeps none for the transaction.
    public func appleStatusWhileQueued(_ transactionId: String) throws -> Int? {
        // Asked at every verification: a cached statement, not the query interface's SQL built again, and only the
        // column the answer needs.
        try queue.inDatabase { db in
            try Int.fetchOne(db.cachedStatement(sql: "SELECT lastStatus FROM appleRetry WHERE transactionId = ?"), arguments: [transactionId])
        }
    }

    /// What the backend is retrying with Apple, the soonest first (support's view, `iapsim state`).
    public func appleQueue(limit: Int = 100) throws -> [AppleRetry] {
        try queue.inDatabase { db in try AppleRetry.order(Column("nextAt"), Column("transactionId")).limit(limit).fetchAll(db) }
    }

    func dueForApple(at date: Date) throws -> [AppleRetry] {
        try queue.inDatabase { db in
            try AppleRetry.filter(Column("nextAt") <= date.timeIntervalSince1970).order(Column("nextAt"), Column("transactionId")).fetchAll(db)
        }
    }

    /// Raw SQL, as every read at launch: the query interface's first use builds its request types and reads the
    /// table's schema, where a cached statement is prepared once.
    func nextAppleRetry() throws -> Date? {
        try queue.inDatabase { db in
            try Double.fetchOne(db.cachedStatement(sql: "SELECT min(nextAt) FROM appleRetry")).map(Date.init(timeIntervalSince1970:))
        }
    }
}
