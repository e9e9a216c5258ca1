import Foundation
import GRDB
import GRDBSQLite
@testable import MockStore
import Testing

/// The App Store Server API's lookups and every launch read the store through indexes, so that a store with a long history
/// answers as quickly as a new one.
@Suite("The store read by index")
struct StoreIndexTests {
    @Test("a transaction, a customer's history and an order are read without scanning every transaction the store made")
    func lookupsSearchNotScan() throws {
        let scratch = Scratch()
        let store = try StoreDatabase(path: scratch.directory.appendingPathComponent("store.sqlite").path)
        defer { try? store.close() }
        for lookup in ["WHERE t.id = ?", "WHERE t.account = ?", "WHERE t.appleOrderId = ?"] {
            let plan = try store.queue.inDatabase { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN \(AppleRecords.select) \(lookup)", arguments: ["1"]).map { $0["detail"] as String }
            }
            #expect(!plan.contains { $0.hasPrefix("SCAN") }, "\(lookup): \(plan)")
        }
    }

    @Test("the time the store last reached, asked at every launch, is read without stepping through every transaction")
    func knownTimeReadsFewEntries() throws {
        let scratch = Scratch()
        let store = try StoreDatabase(path: scratch.directory.appendingPathComponent("store.sqlite").path)
        defer { try? store.close() }
        let steps = try store.queue.inDatabase { db in
            try db.execute(sql: """
                WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < 2000)
                INSERT INTO storeTransaction (id, productId, state, date, finished) SELECT 3000000000 + i, 'coins', 'purchased', 1800000000 + i, 1 FROM n
                """)
            let statement = try db.makeStatement(sql: StoreDatabase.latestTransactionDate)
            #expect(try Double.fetchOne(statement) == 1_800_001_999)
            return sqlite3_stmt_status(statement.sqliteStatement, SQLITE_STMTSTATUS_VM_STEP, 0)
        }
        #expect(steps < 100, "SQLite stepped \(steps) times for the latest of 2,000 transactions")
    }
}
