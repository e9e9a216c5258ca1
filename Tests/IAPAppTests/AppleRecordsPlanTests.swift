import Foundation
import GRDB
@testable import MockStore
import Testing

/// The App Store Server API's lookups read Apple's records through indexes, so that a store with a long history answers
/// as quickly as a new one.
@Suite("Apple's records read by index")
struct AppleRecordsPlanTests {
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
}
