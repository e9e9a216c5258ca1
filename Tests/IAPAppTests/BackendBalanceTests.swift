import Foundation
import GRDB
@testable import MockBackend
import Testing

/// The balance and what a user was credited come from sums the database keeps as the ledger changes; these hold them
/// to the ledger itself through every kind of change.
@Suite("The backend's balance: what the ledger says, read without reading the ledger")
struct BackendBalanceTests {
    private let scratch = Scratch()
    private let at = Date(timeIntervalSince1970: 1_700_000_000)
    private let coins60 = "com.iapsim.coins.60", noAds = "com.iapsim.noads"

    private func ledger(_ backend: BackendDatabase, _ user: String) throws -> (coins: Int, credits: [String: Int]) {
        try backend.queue.inDatabase { db in
            let rows = try Row.fetchAll(db, sql: "SELECT productId, SUM(coins), COUNT(*) FROM credit WHERE user = ? AND revokedAt IS NULL GROUP BY productId",
                                        arguments: [user])
            return (rows.reduce(0) { $0 + ($1[1] as Int) }, Dictionary(uniqueKeysWithValues: rows.map { ($0[0] as String, $0[2] as Int) }))
        }
    }

    private func expectAgrees(_ backend: BackendDatabase, _ user: String, coins: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let account = try backend.account(user: user, notKept: [coins60], units: [coins60], at: at)
        let ledger = try ledger(backend, user)
        #expect(account.coins == coins && ledger.coins == coins, sourceLocation: sourceLocation)
        #expect(account.units[coins60] == ledger.credits[coins60], sourceLocation: sourceLocation)
        #expect(try backend.recentCredits(user: user, limit: 2).total == ledger.credits.values.reduce(0, +), sourceLocation: sourceLocation)
    }

    @Test("credited, refunded, reinstated, deleted by hand: the balance, the units and the inspector's count are the ledger's")
    func followsTheLedger() throws {
        let backend = try BackendDatabase(path: scratch.directory.appendingPathComponent("backend.sqlite").path)
        for id in 1...3 {
            _ = try backend.credit(transactionId: "\(id)", paidProduct: coins60, orderId: nil, requester: "alice", coins: 60, at: at)
        }
        _ = try backend.credit(transactionId: "4", paidProduct: noAds, orderId: nil, requester: "alice", coins: 0, at: at)
        _ = try backend.credit(transactionId: "5", paidProduct: coins60, orderId: nil, requester: "bob", coins: 60, at: at)
        try expectAgrees(backend, "alice", coins: 180)
        #expect(try backend.account(user: "alice", notKept: [coins60], at: at).owned == [noAds])
        #expect(try backend.refund(transactionId: "2", at: at))
        #expect(try !backend.refund(transactionId: "2", at: at))  // refunded once
        try expectAgrees(backend, "alice", coins: 120)
        try backend.queue.write { db in
            try db.execute(sql: "UPDATE credit SET revokedAt = NULL WHERE transactionId = '2'")  // as a chain reinstated
            try db.execute(sql: "DELETE FROM credit WHERE transactionId = '3'")
            try db.execute(sql: "UPDATE credit SET revokedAt = 1 WHERE transactionId = '4'")
        }
        try expectAgrees(backend, "alice", coins: 120)
        #expect(try backend.account(user: "alice", notKept: [coins60], at: at).owned.isEmpty)
        try expectAgrees(backend, "bob", coins: 60)
        try backend.close()
    }

    /// Sorted from the ledger, the inspector's page of credits read every live credit of the user at each frame: 47 ms
    /// a frame with 90,000 of them (`bench/fill.sh`'s history, `sqlite3` on a copy).
    @Test("the inspector's latest credits are read newest first through an index, never sorted from the whole ledger")
    func latestThroughAnIndex() throws {
        let backend = try BackendDatabase(path: scratch.directory.appendingPathComponent("backend.sqlite").path)
        let plan = try backend.queue.inDatabase { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + BackendDatabase.recentCreditsQuery, arguments: ["alice", 20])
                .map { $0["detail"] as String }.joined(separator: "\n")
        }
        #expect(!plan.contains("SCAN") && !plan.contains("TEMP B-TREE"), "\(plan)")
        for (id, second) in [("1", 3.0), ("2", 1.0), ("3", 2.0), ("4", 2.0)] {
            _ = try backend.credit(transactionId: id, paidProduct: coins60, orderId: nil, requester: "alice", coins: 60, at: at.addingTimeInterval(second))
        }
        #expect(try backend.refund(transactionId: "1", at: at))
        #expect(try backend.recentCredits(user: "alice", limit: 2).credits.map(\.transactionId) == ["4", "3"])
        try backend.close()
    }

    @Test("a ledger written before the sums were kept is summed once, when the file is opened")
    func summedWhenOpened() throws {
        let path = scratch.directory.appendingPathComponent("backend.sqlite").path
        do {
            let backend = try BackendDatabase(path: path)
            for id in 1...4 {
                _ = try backend.credit(transactionId: "\(id)", paidProduct: coins60, orderId: nil, requester: "alice", coins: 60, at: at)
            }
            #expect(try backend.refund(transactionId: "1", at: at))
            // As the file was before its sums: no table, no triggers, the migration not yet run.
            try backend.queue.write { db in
                try db.execute(sql: """
                    DROP TRIGGER creditSumInsert; DROP TRIGGER creditSumUpdate; DROP TRIGGER creditSumDelete; DROP TABLE creditSum;
                    DELETE FROM grdb_migrations WHERE identifier = 'v17-credit-sums';
                    """)
            }
            try backend.close()
        }
        let backend = try BackendDatabase(path: path)
        try expectAgrees(backend, "alice", coins: 180)
        try backend.close()
    }
}
