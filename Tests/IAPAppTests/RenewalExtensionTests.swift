import AppleVocabulary
import Foundation
import IAPApp
import IAPCore
@testable import MockStore
import Testing

/// Apple's renewal-date extensions (the Server API's Extend a Subscription Renewal Date), as the app lives them.
@Suite("Renewal-date extensions: the app sees the later expiry and the renewal waits for it")
struct RenewalExtensionTests {
    static let monthly = "com.iapsim.vip.monthly"

    @Test("extended by 10 days: the status's date moves, no charge at the old expiry, the renewal at the new one")
    func renewalWaits() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.buy(Self.monthly)
        let status = { app.parties.store.subscriptions(account: "alice").first { $0.productId == Self.monthly } }
        let before = try #require(status()?.date)
        let original = try #require(status()?.originalTransactionId)
        let outcome = try app.parties.store.extendRenewal(originalTransactionId: original, days: 10, requestIdentifier: "outage")
        let extended = before.addingTimeInterval(10 * 86_400)
        #expect(outcome == .extended(expires: extended, webOrderLineItemId: outcome.webOrderLineItemId))
        #expect(status()?.date == extended)
        #expect(app.parties.store.nextSubscriptionEvent() == extended)
        let charges = { try app.charges().filter { $0.transaction.productId == Self.monthly }.count }
        app.advance(before.timeIntervalSince(app.timers.now) + 60)
        #expect(try charges() == 1)
        #expect(status()?.date == extended)
        app.advance(extended.timeIntervalSince(app.timers.now) + 60)
        #expect(try charges() == 2)
    }

    private func told(_ app: Harness) throws -> [String] {
        try app.parties.store.database.recentNotifications(limit: 100).reversed().map {
            $0.notification.kind.rawValue + ($0.notification.subtype.map { "/" + $0.rawValue } ?? "")
        }
    }

    @Test("Apple tells the app's server of the extension (RENEWAL_EXTENDED), once: the backend grants the service past the old expiry")
    func renewalExtendedIsTold() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.buy(Self.monthly)
        let status = try #require(app.parties.store.subscriptions(account: "alice").first { $0.productId == Self.monthly })
        let before = try #require(status.date)
        _ = try app.parties.store.extendRenewal(originalTransactionId: status.originalTransactionId, days: 10, requestIdentifier: "outage")
        _ = try app.parties.store.extendRenewal(originalTransactionId: status.originalTransactionId, days: 10, requestIdentifier: "outage")
        #expect(try told(app) == ["SUBSCRIBED/INITIAL_BUY", "RENEWAL_EXTENDED"])
        let extended = try #require(try app.parties.store.database.recentNotifications(limit: 1).first?.notification)
        #expect(extended.expiresDate == before.addingTimeInterval(10 * 86_400))
        #expect(extended.transactionId == status.originalTransactionId)
        app.advance(before.timeIntervalSince(app.timers.now) + 3_600)
        #expect(try app.parties.backend.accountNow(user: "alice").owned.contains(Self.monthly))
    }

    @Test("extending every subscriber: RENEWAL_EXTENDED for each extended, FAILURE for one in billing retry, then one SUMMARY with the counts")
    func massExtensionIsSummed() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.buy(Self.monthly)
        app.logIn("bob")
        app.buy(Self.monthly)
        // Alice's renewal comes first, and its charge fails: her subscription is in billing retry; Bob's renews.
        app.session.set(.billingFails, FaultArm(value: "99", once: true))
        let due = try #require(app.parties.store.nextSubscriptionEvent())
        app.advance(due.timeIntervalSince(app.timers.now) + 120)
        #expect(app.parties.store.subscriptions(account: "alice").first?.state != .active)
        #expect(app.parties.store.subscriptions(account: "bob").first?.state == .active)
        let done = try app.parties.store.extendAll(productId: Self.monthly, days: 5, requestIdentifier: "outage-all", reached: true,
                                                  storefronts: ["USA"])
        #expect(done.succeeded == 1 && done.failed == 1)
        #expect(Array(try told(app).suffix(3)) == ["RENEWAL_EXTENSION/FAILURE", "RENEWAL_EXTENDED", "RENEWAL_EXTENSION/SUMMARY"])
        let summary = try #require(try app.parties.store.database.recentNotifications(limit: 1).first?.notification.summary)
        #expect(summary == StoreNotification.ExtensionSummary(productId: Self.monthly, requestIdentifier: "outage-all", storefrontCountryCodes: ["USA"],
                                                              succeededCount: 1, failedCount: 1))
        let count = try told(app).count
        _ = try app.parties.store.extendAll(productId: Self.monthly, days: 5, requestIdentifier: "outage-all", reached: true, storefronts: ["USA"])
        #expect(try told(app).count == count)
    }
}

extension RenewalExtension {
    var webOrderLineItemId: String? {
        if case let .extended(_, webOrder) = self { webOrder } else { nil }
    }
}
