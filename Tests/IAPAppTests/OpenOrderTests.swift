import Foundation
import GRDB
@testable import MockBackend
import Testing

/// A payment Apple tells a modern server of is matched to the payer's latest order no credit took. A user with a long
/// history has as many orders as credits: the match must not read them against each other.
@Suite("The order a payment Apple told of was made for")
struct OpenOrderTests {
    private let scratch = Scratch()
    private let at = Date(timeIntervalSince1970: 1_700_000_000)
    private let coins60 = "com.iapsim.coins.60"

    @Test("the latest order no credit took, before the charge; none when every order was credited")
    func latestUntaken() throws {
        let backend = try BackendDatabase(path: scratch.directory.appendingPathComponent("backend.sqlite").path)
        var orders: [String] = []
        for i in 0..<4 {
            orders.append(try backend.createOrder(user: "alice", productId: coins60, at: at.addingTimeInterval(Double(i))))
        }
        _ = try backend.createOrder(user: "bob", productId: coins60, at: at.addingTimeInterval(10))
        _ = try backend.credit(transactionId: "1", paidProduct: coins60, orderId: orders[3], requester: "alice", coins: 60, at: at)
        _ = try backend.credit(transactionId: "2", paidProduct: coins60, orderId: orders[1], requester: "alice", coins: 60, at: at)
        #expect(try backend.openOrder(user: "alice", productId: coins60, placedBy: at.addingTimeInterval(20))?.id == orders[2])
        #expect(try backend.openOrder(user: "alice", productId: coins60, placedBy: at.addingTimeInterval(1.5))?.id == orders[0])
        _ = try backend.credit(transactionId: "3", paidProduct: coins60, orderId: orders[2], requester: "alice", coins: 60, at: at)
        _ = try backend.credit(transactionId: "4", paidProduct: coins60, orderId: orders[0], requester: "alice", coins: 60, at: at)
        #expect(try backend.openOrder(user: "alice", productId: coins60, placedBy: at.addingTimeInterval(20)) == nil)
        try backend.close()
    }

    /// Read from the ledger by scanning, each of the user's orders cost a pass over every credit: with 90,000 of each the
    /// match did not end in five seconds (`bench/fill.sh`'s backlog).
    @Test("the match reads the orders and the ledger through their indexes, never a whole table")
    func throughIndexes() throws {
        let backend = try BackendDatabase(path: scratch.directory.appendingPathComponent("backend.sqlite").path)
        let plan = try backend.queue.inDatabase { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + BackendDatabase.openOrderQuery, arguments: ["alice", coins60, 0])
                .map { $0["detail"] as String }.joined(separator: "\n")
        }
        #expect(!plan.contains("SCAN") && !plan.contains("TEMP B-TREE"), "\(plan)")
        try backend.close()
    }
}
