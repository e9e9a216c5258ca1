import Foundation
import GRDB
import IAPApp
import IAPCore
import DataFiles
@testable import MockStore
import Testing

/// One Apple ID behind many app accounts (A1, S7, issue 27): the device's signed-in Apple ID pays and owns, whoever is
/// logged in to the app; its unfinished transactions show only while it is signed in.
@Suite("One Apple ID, many app accounts: who pays, who owns, whose queue")
struct AppleIdTests {
    static let noAds = "com.iapsim.noads", monthly = "com.iapsim.vip.monthly"

    private func signIn(_ app: Harness, _ appleId: String) {
        app.runtime.send(.intent(.signInAppleId(appleId)))
        app.advance(0.1)
    }

    @Test("bob re-buys what alice bought with the phone's Apple ID: Apple's sheet says already purchased and charges nothing")
    func rebuyFromAnotherAppAccountIsFree() throws {
        let app = try Harness.aliceBoughtThenBob(Self.noAds)
        app.select(Self.noAds)
        app.press(.enter)
        app.advance(0.5)
        #expect(app.screen().contains("You've already purchased this"))
        app.advance(5)
        let records = try app.storeRecords().filter { $0.transaction.productId == Self.noAds }
        #expect(records.map(\.account) == ["sandbox-1", "sandbox-1"])
        #expect(records.map(\.pressedBy) == ["alice", "bob"])
        // One charge: the second is a regular purchase carrying the first as its original.
        #expect(records[1].transaction.originalTransactionId == records[0].transaction.id)
        #expect(try app.charges().filter { $0.transaction.productId == Self.noAds }.count == 1)
        #expect(app.screen().contains("Apple ID sandbox-1"))
    }

    @Test("a payment on the sheet when another Apple ID signs in waits for its own Apple ID, then is credited to who pressed Buy")
    func switchedMidPurchase() throws {
        let app = try Harness(user: "alice")
        signIn(app, "sandbox-1")
        app.advance(0.5)
        app.press(.enter)  // 60 Coins
        app.advance(0.3)
        signIn(app, "sandbox-2")
        #expect(app.screen().contains("Apple ID changed"))
        app.advance(10)
        // Apple charged sandbox-1; this device's queue shows sandbox-2's transactions only.
        #expect(try app.credits().isEmpty)
        #expect(try app.clientOrders().isEmpty)
        #expect(app.parties.store.transactions(after: nil, limit: 10).isEmpty)
        #expect(try app.unfinishedInStore(on: "phone") == 1)
        app.press(.escape)
        signIn(app, "sandbox-1")
        app.advance(10)
        #expect(try app.credits().map(\.user) == ["alice"])
        #expect(try app.unfinishedInStore(on: "phone") == 0)
    }

    @Test("a callback the observer was late with waits for its Apple ID when another signed in meanwhile, then is credited to who pressed Buy")
    func lateCallbackAfterAnotherAppleIdSignedIn() throws {
        let app = try Harness(user: "bob")
        signIn(app, "sandbox-1")
        app.advance(0.5)
        app.session.set(.observerDelayed, FaultArm(value: "2", once: true))
        app.select(Self.noAds)
        app.press(.enter)
        app.advance(1.5)
        let paid = try #require(try app.storeRecords().first { $0.transaction.state == .purchased })
        #expect(paid.account == "sandbox-1")
        signIn(app, "sandbox-2")
        app.advance(5)
        // The late news is of sandbox-1's payment: while sandbox-2 is signed in, the queue shows it to no one.
        #expect(app.state.device.storeQueue[paid.transaction.id] == nil)
        #expect(try app.clientOrders().isEmpty)
        #expect(app.state.unclaimed.isEmpty)
        #expect(try app.credits().isEmpty)
        signIn(app, "sandbox-1")
        app.advance(10)
        #expect(try app.credits().map(\.user) == ["bob"])
        #expect(try app.unfinishedInStore(on: "phone") == 0)
    }

    @Test("Restore Purchases brings back what the signed-in Apple ID owns, whoever is logged in")
    func restoreIsTheAppleIds() throws {
        let app = try Harness.aliceBoughtThenBob(Self.noAds)
        app.runtime.send(.intent(.restorePurchases))
        app.advance(5)
        #expect(app.screen().contains("Purchases restored (1)"))
        let restored = try app.storeRecords().filter { $0.transaction.state == .restored }
        #expect(restored.map(\.account) == ["sandbox-1"])
        #expect(restored.map(\.pressedBy) == ["bob"])
        // Another Apple ID owns nothing.
        signIn(app, "sandbox-2")
        app.press(.escape)
        app.runtime.send(.intent(.restorePurchases))
        app.advance(5)
        #expect(app.screen().contains("Nothing to restore"))
    }

    @Test("one subscription per group per Apple ID: bob subscribing where alice's Apple ID is subscribed is charged nothing")
    func oneSubscriptionPerAppleId() throws {
        let app = try Harness.aliceBoughtThenBob(Self.monthly)
        #expect(app.parties.store.subscriptions(account: "bob").map(\.productId) == [Self.monthly])
        app.select(Self.monthly)
        app.press(.enter)
        app.advance(0.5)
        #expect(app.screen().contains("You're currently subscribed to this."))
        app.advance(5)
        #expect(try app.charges().filter { $0.transaction.productId == Self.monthly }.count == 1)
        // Each app user on a device where no Apple ID was signed in pays with one of their own, as before.
        let own = try Harness(user: "alice")
        own.advance(0.5)
        own.buy(Self.monthly)
        own.logIn("bob")
        #expect(own.parties.store.subscriptions(account: "bob").isEmpty)
        own.buy(Self.monthly)
        #expect(try own.charges().filter { $0.transaction.productId == Self.monthly }.count == 2)
    }

    @Test("the Apple ID signed in is the device's, kept across launches, shown in the devices panel")
    func signedInIsKept() throws {
        let app = try Harness(user: "alice")
        signIn(app, "sandbox-2")
        try app.relaunch(user: "alice")
        app.advance(0.5)
        #expect(app.state.device.appleId == "sandbox-2")
        #expect(app.screen().contains("Apple ID sandbox-2"))
        app.press(.char("D"))
        app.advance(0.1)
        #expect(app.screen().contains("sandbox-2"))
        app.press(.enter)  // on this device: the next tester
        app.advance(0.1)
        #expect(app.state.device.appleId == "sandbox-3")
        #expect(app.screen().contains("sandbox-3"))
    }

    @Test("the app signs a new data folder's phone in as sandbox-1, and each new device of it; a folder from before Apple IDs stays per user")
    func newFoldersHaveAnAppleId() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.buy(Self.noAds)
        // alice's purchase, made before any Apple ID was signed in, keeps its per-user Apple ID: nothing owned moves.
        #expect(try app.storeRecords().count == 1)
        let before = try AppSession(directory: app.directory, catalog: shippedCatalog, user: "alice", firstAppleId: "sandbox-1")
        #expect(before.parties.store.database.appleId == nil)
        let scratch = Scratch()
        let fresh = DataDirectory(path: scratch.directory.appendingPathComponent("data").path)
        try FreshData.lay(in: fresh)
        let session = try AppSession(directory: fresh, catalog: shippedCatalog, user: "alice", firstAppleId: "sandbox-1")
        #expect(session.parties.store.database.appleId == "sandbox-1")
        session.runtime.send(.intent(.signInAppleId("sandbox-2")))
        try session.relaunch(user: "alice")
        #expect(session.parties.store.database.appleId == "sandbox-2")  // what was signed in since stays
        try session.move(to: "tablet", user: "bob")
        #expect(session.parties.store.database.appleId == "sandbox-1")
    }

    @Test("a store file from before Apple IDs keeps who owns what: each app user's Apple ID is their own name")
    func migrationKeepsOwnership() throws {
        let scratch = Scratch()
        let path = scratch.directory.appendingPathComponent("store.sqlite").path
        try StoreDatabase(path: path).close()
        // Written as an earlier version did: an account per app user, no one who pressed Buy, no Apple ID signed in.
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v11-apple-ids'")
            try db.execute(sql: "DROP TABLE signedInAppleId")
            try db.execute(sql: "ALTER TABLE storeTransaction DROP COLUMN pressedBy")
            try db.execute(sql: """
                INSERT INTO storeTransaction (id, productId, state, applicationUsername, date, finished, account, device)
                VALUES ('1000000001', 'com.iapsim.noads', 'purchased', 'ORD-000001', 0, 1, 'alice', 'phone')
                """)
        }
        try queue.close()
        let store = try StoreDatabase(path: path)
        #expect(store.appleId == nil)
        #expect(store.appleId(for: "alice") == "alice")
        let records = try store.all()
        #expect(records.map(\.account) == ["alice"])
        #expect(records.map(\.pressedBy) == ["alice"])
        #expect(try store.originalPurchase(account: "alice", productId: "com.iapsim.noads") == "1000000001")
    }

    @Test("a login right after an Apple ID signs in waits for its queue: bob's order-less payment is still his, not the next user's")
    func loginRightAfterSignInWaitsForTheQueue() throws {
        let app = try Harness(user: "bob", faults: [.emptyApplicationUsername])
        signIn(app, "sandbox-2")
        app.advance(0.5)
        app.select(Self.noAds)
        app.press(.enter)
        app.advance(0.3)
        // The payment completes on sandbox-2 while sandbox-1 is signed in: its news waits for sandbox-2.
        signIn(app, "sandbox-1")
        app.advance(10)
        // Killed: the payment's id in the observer's memory is gone; only bob's intent on disk says he pressed Buy.
        try app.relaunch(user: "小明")
        app.advance(1)
        // sandbox-2 signs in and bob logs in before the store's queue for it has been read: nothing in it is known yet, so
        // none of bob's intents is stale.
        // The app is killed then, before that read arrives.
        app.runtime.send(.intent(.signInAppleId("sandbox-2")))
        app.press(.escape, .char("L"))
        app.type("bob")
        app.press(.enter)
        try app.relaunch(user: "alice")
        app.advance(10)
        #expect(try app.credits().isEmpty)
        #expect(try app.clientOrders().map(\.user) == ["bob"])
        app.logIn("bob")
        #expect(app.screen().contains("Unfinished order found"))
        app.press(.enter)
        app.advance(10)
        #expect(try app.credits().map(\.user) == ["bob"])
    }
}
