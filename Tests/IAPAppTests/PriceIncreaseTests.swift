import Foundation
import IAPApp
import IAPCore
@testable import MockStore
import Testing

/// A subscription's price raised for its subscribers, with their consent (PRICE_INCREASE / PENDING, ACCEPTED) or
/// without it (EXPIRED / PRICE_INCREASE at the renewal).
@Suite("Price increases: agreed to, or the subscription ends at the renewal")
struct PriceIncreaseTests {
    static let yearly = "com.iapsim.vip.yearly"

    private func told(_ app: Harness) throws -> [String] {
        try app.parties.store.database.recentNotifications(limit: 100).reversed().map {
            $0.notification.kind.rawValue + ($0.notification.subtype.map { "/" + $0.rawValue } ?? "")
        }
    }

    private func subscribed() throws -> Harness {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.buy(Self.yearly)
        return app
    }

    private var charges: (Harness) throws -> Int { { try $0.charges().filter { $0.transaction.productId == Self.yearly }.count } }

    @Test("never agreed to: the subscription ends at the renewal, uncharged, and the backend stops granting it")
    func declined() throws {
        let app = try subscribed()
        #expect(app.parties.store.raisePrice(productId: Self.yearly) == 1)
        // Asked once.
        #expect(app.parties.store.raisePrice(productId: Self.yearly) == 0)
        let status = { app.parties.store.subscriptions(account: "alice").first }
        #expect(status()?.priceIncrease == .pending)
        #expect(try app.chains().first?.renewal.price_consent_status == "0")
        let due = try #require(app.parties.store.nextSubscriptionEvent())
        app.advance(due.timeIntervalSince(app.timers.now) + 60)
        #expect(status()?.state == .expired)
        #expect(status()?.priceIncrease == nil)
        #expect(try charges(app) == 1)
        #expect(try !app.parties.backend.accountNow(user: "alice").owned.contains(Self.yearly))
        #expect(try told(app) == ["SUBSCRIBED/INITIAL_BUY", "PRICE_INCREASE/PENDING", "EXPIRED/PRICE_INCREASE"])
        let chain = try #require(try app.chains().first)
        #expect(chain.renewal.expiration_intent == "3")
    }

    @Test("agreed to with p in Manage subscriptions: the renewal goes through at the new price, and the question is gone")
    func accepted() throws {
        let app = try subscribed()
        app.parties.store.raisePrice(productId: Self.yearly)
        app.press(.char("m"))
        app.advance(0.5)
        #expect(app.screen().contains("Price increase: p to agree"))
        app.press(.char("p"))
        app.advance(0.5)
        #expect(app.screen().contains("You agreed to the new price"))
        app.press(.escape)
        #expect(try told(app) == ["SUBSCRIBED/INITIAL_BUY", "PRICE_INCREASE/PENDING", "PRICE_INCREASE/ACCEPTED"])
        let due = try #require(app.parties.store.nextSubscriptionEvent())
        app.advance(due.timeIntervalSince(app.timers.now) + 60)
        let status = app.parties.store.subscriptions(account: "alice").first
        #expect(status?.state == .active)
        #expect(status?.priceIncrease == nil)
        #expect(try charges(app) == 2)
        #expect(try app.parties.backend.accountNow(user: "alice").owned.contains(Self.yearly))
    }

    @Test("a subscriber who turned auto-renew off is not asked")
    func cancelledIsNotAsked() throws {
        let app = try subscribed()
        let original = try #require(app.parties.store.subscriptions(account: "alice").first?.originalTransactionId)
        app.parties.store.setAutoRenew(false, originalTransactionId: original)
        #expect(app.parties.store.raisePrice(productId: Self.yearly) == 0)
    }
}
