import Foundation
import IAPCore
import MockBackend
import Testing

/// I7, found by the seeded explorer: a renewal goes to the subscriber even when it reaches the backend before the
/// chain's first charge does, and the backend's entitlement ends with the chain's current period, not with the
/// longest period it ever heard of.
@Suite("Subscriptions: the subscriber and the end of the entitlement (I3, I7)")
struct SubscriberAndExpiryTests {
    static let monthly = "com.iapsim.vip.monthly", plus = "com.iapsim.vip.plus", yearly = "com.iapsim.vip.yearly"
    static let notKept = Set(shippedCatalog.filter { $0.kind.isConsumable || $0.subscription != nil }.map(\.id))

    private func owned(_ app: Harness, _ user: String) throws -> Set<String> {
        try app.parties.backend.database.account(user: user, notKept: Self.notKept, at: app.timers.now).owned
    }

    @Test("a renewal bob's app verifies before alice's first charge reached the backend is credited to alice, never to bob")
    func renewalBeforeTheChainIsKnown() throws {
        let app = try Harness(user: "alice", faults: [.backendDown])
        app.advance(0.5)
        app.buy(Self.monthly)  // paid, saved for alice, not verified: the backend does not know the chain
        #expect(try app.credits().isEmpty)
        try app.relaunch(user: "bob", faults: [.renewalWhileClosed])  // the trial renews while the app is closed
        app.advance(30)
        let renewal = try #require(try app.storeRecords().last { $0.transaction.productId == Self.monthly })
        #expect(renewal.account == "alice" && renewal.transaction.applicationUsername == nil)
        #expect(try app.credits().allSatisfy { $0.user == "alice" })
        #expect(try !owned(app, "bob").contains(Self.monthly))
        app.logIn("alice")
        app.press(.enter)  // Continue the unfinished order found at login
        app.advance(10)
        app.logIn("bob")
        app.press(.enter)  // bob's app still holds the renewal: Continue
        app.advance(10)
        let credits = try app.credits().filter { $0.productId == Self.monthly }
        #expect(credits.count == 2)
        #expect(credits.allSatisfy { $0.user == "alice" })
        #expect(try app.clientOrders().isEmpty)
        #expect(try owned(app, "alice").contains(Self.monthly))
    }

    @Test("a renewal the client gives to 小明 (his payment of that product failed nameless while the app was dead, so his note of paying stayed open, with his order) is still alice's")
    func renewalClaimedByAStaleIntent() throws {
        let app = try Harness(user: "alice", faults: [.backendDown])
        app.advance(0.5)
        app.buy(Self.monthly)  // paid, saved for alice, not verified
        try app.relaunch(user: "小明", faults: [.emptyApplicationUsername])
        app.advance(1)
        app.runtime.haltAtNextStoreNews()  // 小明's payment fails (alice's is unfinished), and the app dies on hearing it
        app.buy(Self.monthly)
        #expect(app.runtime.halted)
        try app.relaunch(user: "小明", faults: [.renewalWhileClosed])
        app.advance(1)
        // The renewal is no payment of 小明's open note: his app carries it, and the backend credits the chain's subscriber.
        #expect(app.screen().contains("pending 1"))
        app.advance(30)
        let renewal = try #require(try app.storeRecords().last { $0.transaction.productId == Self.monthly && $0.transaction.state == .purchased })
        #expect(renewal.account == "alice" && renewal.transaction.originalId != renewal.transaction.id)
        #expect(try app.credits().allSatisfy { $0.user == "alice" })
        app.logIn("alice")
        app.press(.enter)
        app.advance(10)
        app.logIn("小明")
        for _ in 0..<3 where app.state.modal != nil {
            app.press(.enter)
            app.advance(10)
        }
        let credits = try app.credits().filter { $0.productId == Self.monthly }
        #expect(credits.count == 2)
        #expect(credits.allSatisfy { $0.user == "alice" })
        #expect(try app.clientOrders().isEmpty)
    }

    @Test("refunded before the backend heard of the subscription: verified afterwards, it is not granted")
    func refundedBeforeVerified() throws {
        let app = try Harness(user: "alice", faults: [.backendDown])
        app.advance(0.5)
        app.buy(Self.plus)  // paid, saved, not verified
        _ = try #require(app.parties.store.refund(account: "alice"))
        try app.relaunch(user: "alice", faults: [])
        app.advance(1)
        app.press(.enter)  // Continue
        app.advance(10)
        #expect(try app.clientOrders().isEmpty)
        #expect(app.parties.store.subscriptions(account: "alice").first?.state == .revoked)
        #expect(try !owned(app, "alice").contains(Self.plus))
        // Subscribed again afterwards: granted again, Apple's later word winning over its earlier one.
        app.press(.escape)
        app.buy(Self.plus)
        #expect(try app.storeRecords().filter { $0.transaction.state == .purchased }.count == 2)
        #expect(try owned(app, "alice").contains(Self.plus))
    }

    @Test("upgraded from a year to a month and cancelled: the backend stops granting at the month's end, not the year's")
    func upgradeThenExpire() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.buy(Self.yearly)
        app.buy(Self.plus)  // an upgrade: the year ends now, VIP Plus runs a month
        app.press(.char("m"), .enter, .escape)  // auto-renew off
        app.advance(1)
        #expect(try owned(app, "alice") == [Self.plus])
        let end = try #require(app.parties.store.nextSubscriptionEvent())
        app.advance(end.timeIntervalSince(app.timers.now) + 60)
        #expect(app.parties.store.subscriptions(account: "alice").first?.state == .expired)
        #expect(try owned(app, "alice").isEmpty)
    }

    @Test("refunded, then subscribed again to a shorter period: the backend grants that period, not the refunded year")
    func resubscribeAfterRefund() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.buy(Self.yearly)
        _ = try #require(app.parties.store.refund(account: "alice"))
        app.advance(1)
        app.buy(Self.plus)  // the same chain again (a resubscription)
        app.press(.char("m"), .enter, .escape)
        app.advance(1)
        #expect(try owned(app, "alice") == [Self.plus])
        let end = try #require(app.parties.store.nextSubscriptionEvent())
        app.advance(end.timeIntervalSince(app.timers.now) + 60)
        #expect(try owned(app, "alice").isEmpty)
    }
}
