import Foundation
import GRDB
import IAPCore
import Testing

@Suite("A large backlog of pending orders")
struct BacklogTests {
    @Test("10,000 pending orders at login: the first is asked about, the count is right, nothing is verified under another user")
    func tenThousandPending() throws {
        let app = try Harness(user: "alice")
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for i in 0..<10_000 {
            try app.parties.vault.save(PendingOrder(
                transactionId: String(2_000_000_000 + i), user: i.isMultiple(of: 10) ? "bob" : "alice",
                productId: "com.iapsim.coins.60", orderId: nil, purchasedAt: start.addingTimeInterval(Double(i)),
                price: "¥6", receiptHash: nil, attempts: i % 3))
        }
        try app.relaunch(user: "alice")
        app.advance(0.5)
        #expect(app.state.pendingCount == 9_000)
        #expect(app.screen().contains("pending 9000"))
        // Never-verified first, then the oldest: the first order alice holds with no attempts.
        #expect(app.state.modal == .unfinished(transactionId: "2000000003", choice: 0))
        app.press(.escape)
        #expect(app.state.modal == .unfinished(transactionId: "2000000006", choice: 0))
        #expect(!app.state.orders.keys.contains("2000000000"))  // bob's
        // A page in memory, never the backlog.
        #expect(app.state.orders.count <= Session.pageSize)
    }

    @Test("a backlog longer than a page and than a batch of the store's queue: each order is asked about once, all are credited")
    func longerThanAPage() throws {
        let app = try Harness(user: "alice", faults: [.backendDown])
        let count = 300, start = Date(timeIntervalSince1970: 1_800_000_000)
        // Paid and saved for alice, then the app died before any was verified: the store and her store hold them all.
        let store = try DatabaseQueue(path: app.directory.store)
        try store.write { db in
            for i in 0..<count {
                try db.execute(sql: """
                    INSERT INTO storeTransaction (id, productId, state, applicationUsername, date, finished, account)
                    VALUES (?, 'com.iapsim.coins.60', 'purchased', NULL, ?, 0, 'alice')
                    """, arguments: [String(3_000_000_000 + i), start.addingTimeInterval(Double(i)).timeIntervalSince1970])
                try app.parties.vault.save(PendingOrder(
                    transactionId: String(3_000_000_000 + i), user: "alice", productId: "com.iapsim.coins.60", orderId: nil,
                    purchasedAt: start.addingTimeInterval(Double(i)), price: "¥6", receiptHash: nil, attempts: i % 2))
            }
        }
        try store.close()

        try app.relaunch(user: "alice")
        #expect(app.state.pendingCount == count)
        #expect(app.state.orders.count <= Session.pageSize)
        // The store re-delivers every one of them; the client knows it holds them without keeping them in memory.
        app.advance(0.1)
        #expect(app.state.storeQueue.isEmpty)
        #expect(app.state.unclaimed.isEmpty)

        var asked: [String] = []
        while case let .unfinished(id, _) = app.state.modal {
            asked.append(id)
            app.press(.escape)  // Later
        }
        #expect(asked.count == count)
        #expect(Set(asked).count == count)

        app.session.set(.backendDown, nil)  // the network back: a trigger
        app.session.settle()
        #expect(app.state.pendingCount == 0)
        #expect(app.parties.store.unfinished(limit: 0).total == 0)
        #expect(try app.parties.backend.database.recentCredits(user: "alice", limit: 0).total == count)
    }
}
