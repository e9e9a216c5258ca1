import Foundation
import GRDB
import IAPApp
import IAPCore
import MockStore
import Testing

/// Apple's customer order ids (Look Up Order ID): what support reads off the customer's e-mail receipt.
@Suite("Apple's customer order ids: one per charge, none for what is free, found again by the store, kept for stores of earlier versions")
struct AppleOrderTests {
    static let monthly = "com.iapsim.vip.monthly"

    /// alice bought coins and the monthly subscription, which then renewed once.
    private func purchasesAndARenewal() throws -> Harness {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.buy("com.iapsim.coins.60")
        app.buy(Self.monthly)
        let due = try #require(app.parties.store.nextSubscriptionEvent())
        app.advance(due.timeIntervalSince(app.timers.now) + 1)
        app.advance(5)
        return app
    }

    private func orders(_ app: Harness) throws -> [String: String] {
        let reported = try DatabaseQueue(path: app.directory.store).read { try StoreDatabase.reportedTransactions($0) }
        return Dictionary(uniqueKeysWithValues: reported.compactMap { row in row.appleOrderId.map { (row.record.transaction.id, $0) } })
    }

    @Test("each charge, a renewal too, has its own ten-letter order id, unlike the app's order id, and the store finds the charge by it")
    func eachCharge() throws {
        let app = try purchasesAndARenewal()
        let charges = try app.storeRecords().filter { $0.transaction.state == .purchased }
        #expect(charges.count == 3)
        let orders = try orders(app)
        #expect(Set(orders.keys) == Set(charges.map(\.transaction.id)))
        #expect(Set(orders.values).count == 3)
        let records = app.appleRecords
        for charge in charges {
            let order = try #require(orders[charge.transaction.id])
            #expect(order.count == 10 && order.allSatisfy { $0.isUppercase || $0.isNumber }, "\(order)")
            #expect(order != charge.transaction.applicationUsername)
            #expect(try records.order(order).map(\.entry.transaction_id) == [charge.transaction.id])
        }
        #expect(try records.order("ZZZZZZZZZZ").isEmpty)
    }

    @Test("what the Apple ID already owns, bought again, charges nothing and has no order id: no e-mail receipt, nothing to look up")
    func freeRebuysHaveNone() throws {
        let app = try Harness.aliceBoughtThenBob("com.iapsim.noads")
        app.buy("com.iapsim.noads")
        app.buy(Self.monthly)
        app.buy(Self.monthly)
        let purchased = try app.storeRecords().filter { $0.transaction.state == .purchased }.map(\.transaction)
        let rebuys = purchased.filter { $0.originalTransactionId != nil }
        #expect(rebuys.map(\.productId).sorted() == ["com.iapsim.noads", Self.monthly], "\(purchased)")
        let orders = try orders(app)
        #expect(Set(orders.keys) == Set(purchased.filter { $0.originalTransactionId == nil }.map(\.id)), "\(orders)")
        let records = app.appleRecords
        for order in orders.values { #expect(try records.order(order).count == 1) }
    }

    @Test("a store written before order ids gets each charge's id at the next launch, the same it would have had")
    func migration() throws {
        let app = try purchasesAndARenewal()
        let before = try orders(app)
        #expect(before.count == 3)
        try DatabaseQueue(path: app.directory.store).write { db in
            try db.execute(sql: """
                DROP INDEX storeTransactionByAppleOrder;
                ALTER TABLE storeTransaction DROP COLUMN appleOrderId;
                DELETE FROM grdb_migrations WHERE identifier = 'v12-apple-orders';
                """)
        }
        try app.relaunch()
        #expect(try orders(app) == before)
    }
}
