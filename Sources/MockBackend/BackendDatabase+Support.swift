import Foundation
import GRDB
import IAPCore

/// An alarm a client uploaded (seed 002), as support lists it.
public struct ClientAlarm: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "clientAlarm"
    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .timeIntervalSince1970 }
    public static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .timeIntervalSince1970 }

    public let device: String
    public let user: String?
    public let kind: String
    public let transactionId: String?
    public let text: String
    /// ISO 8601, as the client sent it.
    public let raisedAt: String
    public let receivedAt: Date
}

/// A receipt the backend had already seen for a transaction it had decided, sent again (seed 002's md5 check): by the
/// same user after a crash, or by someone else, which support should look at.
public struct ReceiptReplay: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "receiptReplay"
    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .timeIntervalSince1970 }
    public static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .timeIntervalSince1970 }

    public let receiptHash: String
    public let transactionId: String
    /// Who sent it this time.
    public let user: String
    /// Who sent it when the transaction was decided.
    public let firstUser: String
    public let at: Date
}

extension BackendDatabase {
    static func supportMigration(_ db: Database) throws {
        try db.create(table: ClientAlarm.databaseTableName) { table in
            table.column("device", .text).notNull()
            table.column("user", .text)
            table.column("kind", .text).notNull()
            table.column("transactionId", .text)
            table.column("text", .text).notNull()
            table.column("raisedAt", .text).notNull()
            table.column("receivedAt", .double).notNull().indexed()
            // A report sent again (its answer lost, or a trigger while it was on its way) is kept once.
            table.uniqueKey(["device", "kind", "text", "raisedAt"], onConflict: .ignore)
        }
        try db.create(table: "decidedReceipt") { table in
            table.column("receiptHash", .text).notNull()
            table.column("transactionId", .text).notNull()
            table.column("user", .text).notNull()
            table.primaryKey(["receiptHash", "transactionId"])
        }
        try db.create(table: ReceiptReplay.databaseTableName) { table in
            table.column("receiptHash", .text).notNull()
            table.column("transactionId", .text).notNull()
            table.column("user", .text).notNull()
            table.column("firstUser", .text).notNull()
            table.column("at", .double).notNull().indexed()
        }
    }

    func keep(_ alarms: [AlarmReport], at date: Date) throws {
        try queue.writeTransaction { db in
            for report in alarms {
                try ClientAlarm(device: report.device, user: report.user, kind: report.kind, transactionId: report.transactionId,
                                text: report.text, raisedAt: report.raisedAt, receivedAt: date).insert(db)
            }
        }
    }

    /// The latest alarms clients uploaded, newest first.
    public func clientAlarms(limit: Int = 100) throws -> [ClientAlarm] {
        try queue.inDatabase { db in try ClientAlarm.order(Column("receivedAt").desc, Column("raisedAt").desc).limit(limit).fetchAll(db) }
    }

    /// Who sent this receipt when the transaction was decided, if the backend has seen it so.
    func decider(of decision: ReceiptDecision) throws -> String? {
        try queue.inDatabase { db in
            try String.fetchOne(db.cachedStatement(sql: "SELECT user FROM decidedReceipt WHERE receiptHash = ? AND transactionId = ?"),
                                arguments: [decision.receiptHash, decision.transactionId])
        }
    }

    func noteReplay(_ replay: ReceiptReplay) throws {
        try queue.writeTransaction { db in try replay.insert(db) }
    }

    /// Receipts sent again for a decided transaction, newest first.
    public func receiptReplays(limit: Int = 100) throws -> [ReceiptReplay] {
        try queue.inDatabase { db in try ReceiptReplay.order(Column("at").desc).limit(limit).fetchAll(db) }
    }
}

extension BackendDatabase {
    /// Who made each of these orders, in the app's own records (support's side of A3); unknown ids are left out.
    public func orderOwners(_ orderIds: [String]) throws -> [String: String] {
        guard !orderIds.isEmpty else { return [:] }
        let marks = Array(repeating: "?", count: orderIds.count).joined(separator: ", ")
        return try queue.inDatabase { db in
            try Dictionary(Row.fetchAll(db, sql: "SELECT id, user FROM orders WHERE id IN (\(marks))", arguments: StatementArguments(orderIds))
                .map { ($0[0] as String, $0[1] as String) }, uniquingKeysWith: { first, _ in first })
        }
    }
}

/// Which user's receipt decided a transaction (credited, rejected or compensated), written in the same write transaction
/// as the decision, so that a replay of the receipt by another user is seen whenever the decision stands.
struct ReceiptDecision {
    let receiptHash: String
    let transactionId: String
    let user: String

    /// Inside the decision's write transaction.
    func note(_ db: Database) throws {
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO decidedReceipt (receiptHash, transactionId, user) VALUES (?, ?, ?)")
            .execute(arguments: [receiptHash, transactionId, user])
    }
}
