import Foundation
import IAPApp
import IAPCore
import MockStore
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
}

extension RenewalExtension {
    var webOrderLineItemId: String? {
        if case let .extended(_, webOrder) = self { webOrder } else { nil }
    }
}
