import Foundation
import GRDB
import IAPCore
import Testing

@Suite("A large backlog of pending orders")
struct BacklogTests {
    /// `count` transactions paid by `user`, unfinished in the store and pending in the user's store, one second apart.
    private func paidAndSaved(_ count: Int, for user: String, in app: Harness, attempts: (Int) -> Int = { _ in 0 }) throws {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let store = try DatabaseQueue(path: app.directory.store)
        try store.write { db in
            for i in 0..<count {
                try db.execute(sql: """
                    INSERT INTO storeTransaction (id, productId, state, applicationUsername, date, finished, account)
                    VALUES (?, 'com.iapsim.coins.60', 'purchased', NULL, ?, 0, ?)
                    """, arguments: [String(3_000_000_000 + i), start.addingTimeInterval(Double(i)).timeIntervalSince1970, user])
                try app.parties.vault.save(PendingOrder(
                    transactionId: String(3_000_000_000 + i), user: user, productId: "com.iapsim.coins.60", orderId: nil,
                    purchasedAt: start.addingTimeInterval(Double(i)), price: "¥6", receiptHash: nil, attempts: attempts(i)))
            }
        }
        try store.close()
    }

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

    @Test("the inspector counts every row a column has past the screen, not only those it read (found in a QA walk: 10,000 pending, \"+20\" and \"+54\")")
    func inspectorCountsTheBacklog() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        try paidAndSaved(300, for: "alice", in: app)
        try app.relaunch(user: "alice")
        app.advance(0.5)
        app.press(.char("i"))
        let screen = app.screen(width: 120, height: 30)
        #expect(screen.contains("Store queue (300)") && screen.contains("Client alice (300)"))
        // Ten rows of each on screen; the line under them counts the other 290, read or not.
        let counts = screen.split(separator: "\n").first { $0.hasPrefix(" +") }?.split(separator: " ")
        #expect(counts == ["+290", "+290"], "\(screen)")
    }

    @Test("a backlog longer than a page and than a batch of the store's queue: each order is asked about once, all are credited")
    func longerThanAPage() throws {
        let app = try Harness(user: "alice", faults: [.backendDown])
        let count = 300
        // Paid and saved for alice, then the app died before any was verified: the store and her store hold them all.
        try paidAndSaved(count, for: "alice", in: app, attempts: { $0 % 2 })

        try app.relaunch(user: "alice")
        #expect(app.state.pendingCount == count)
        #expect(app.state.orders.count <= Session.pageSize)
        // The store re-delivers every one of them; the client knows it holds them without keeping them in memory.
        app.advance(0.1)
        #expect(app.state.device.storeQueue.isEmpty)
        #expect(app.state.unclaimed.isEmpty)

        app.advance(0.4)  // the prompts, once the product list has come
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

    @Test("the backlog's count, kept by SQLite, follows every write: new, verdict, removed, and rows written by anyone")
    func countFollowsWrites() throws {
        let app = try Harness()
        let vault = app.parties.vault
        func counted(_ user: String) throws -> Int {
            try DatabaseQueue(path: app.directory.keychain).read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pendingOrder WHERE user = ? AND status = 'pending'", arguments: [user]) ?? 0
            }
        }
        func check(_ line: Int) throws {
            for user in ["alice", "bob"] {
                #expect(try vault.pendingPage(user: user, after: nil, limit: 1).total == counted(user), "after step \(line)")
            }
        }
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        var orders: [PendingOrder] = []
        for i in 0..<6 {
            let order = PendingOrder(transactionId: "t\(i)", user: i < 4 ? "alice" : "bob", productId: "p", orderId: nil,
                                     purchasedAt: start, price: "¥6", receiptHash: nil)
            try vault.save(order, closingIntent: nil)
            orders.append(order)
        }
        try check(1)
        var verified = orders[0]
        verified.status = .verified
        try vault.save(verified, closingIntent: nil)
        try check(2)
        var retried = orders[1]
        retried.attempts = 3
        try vault.save(retried, closingIntent: nil)
        try check(3)
        try vault.remove(transactionId: "t0", user: "alice")
        try vault.remove(transactionId: "t2", user: "alice")
        try vault.remove(transactionId: "t4", user: "bob")
        try check(4)
        // A taken-over row is refused by the upsert; the count stays with its owner.
        try? vault.save(PendingOrder(transactionId: "t5", user: "alice", productId: "p", orderId: nil, purchasedAt: start, price: "¥6",
                                     receiptHash: nil), closingIntent: nil)
        try check(5)
        try DatabaseQueue(path: app.directory.keychain).write { db in
            try db.execute(sql: "UPDATE pendingOrder SET user = 'bob' WHERE transactionId = 't1'")
            try db.execute(sql: "UPDATE pendingOrder SET status = 'rejected' WHERE transactionId = 't3'")
        }
        try check(6)
        #expect(try vault.pendingPage(user: "alice", after: nil, limit: 1).total == 0)
        #expect(try vault.pendingPage(user: "bob", after: nil, limit: 1).total == 2)
    }

    @Test("a purchase made while a long store queue is still being read is claimed once, by its payer; the backlog stays its owner's")
    func buyWhileTheQueueIsRead() throws {
        let app = try Harness(user: "alice", faults: [.backendDown])
        let count = 600
        try paidAndSaved(count, for: "alice", in: app)

        // Bob launches the app; the first batch of the queue is read before anything, the rest between frames.
        try app.relaunch(user: "bob", faults: [])
        #expect(app.state.device.readingStoreQueue)
        // Live, the product list can answer while a long queue is still being read; bob buys at once.
        app.runtime.send(.productsLoaded(.success(shippedCatalog)))
        app.press(.down, .enter)  // 300 Coins: the store refuses a product whose transaction is still open
        #expect(app.state.device.readingStoreQueue)
        app.session.settle()
        #expect(!app.state.device.readingStoreQueue)
        #expect(app.state.unclaimed.isEmpty)
        #expect(try app.credits().filter { $0.user == "bob" }.count == 1)
        #expect(try app.credits().filter { $0.user == "alice" }.isEmpty)
        #expect(try app.parties.vault.pendingPage(user: "alice", after: nil, limit: 1).total == count)

        app.runtime.send(.switchUser("alice"))
        #expect(app.state.pendingCount == count)
    }
}
