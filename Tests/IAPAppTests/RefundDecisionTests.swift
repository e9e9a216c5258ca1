import AppleVocabulary
import Foundation
import IAPApp
import IAPCore
import MockBackend
@testable import MockStore
import Testing

/// Apple's refund decisions other than a grant: declined (REFUND_DECLINED), and a granted refund reversed
/// (REFUND_REVERSED), as the app's server and the user see them.
@Suite("Refund decisions: declined, and reversed")
struct RefundDecisionTests {
    static let monthly = "com.iapsim.vip.monthly", coins = "com.iapsim.coins.60"


    @Test("a consumable's refund declined: Apple asks about it first, the coins stay, the charge is not cancelled")
    func declinedConsumable() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.buy(Self.coins)
        let balance = try app.parties.backend.accountNow(user: "alice").coins
        #expect(balance > 0)
        let charge = try #require(try app.storeRecords().first { $0.transaction.productId == Self.coins })
        #expect(app.parties.store.declineRefund(account: "alice") == charge.transaction.id)
        #expect(try app.notificationKinds() == ["ONE_TIME_CHARGE", "CONSUMPTION_REQUEST", "REFUND_DECLINED"])
        #expect(try app.parties.backend.accountNow(user: "alice").coins == balance)
        #expect(try app.storeDetails([charge.transaction.id])[charge.transaction.id]?.cancellationDate == nil)
        // Declined is not refunded: a refund can still be granted after it, and there is nothing to reverse.
        #expect(app.parties.store.reverseRefund(account: "alice") == nil)
        #expect(app.parties.store.refund(account: "alice") == charge.transaction.id)
        #expect(try app.parties.backend.accountNow(user: "alice").coins == 0)
    }

    @Test("Apple's question about a consumable carries the customer's reason; a fulfillment issue is refunded as the app's")
    func customersReason() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.buy(Self.coins)
        app.buy(Self.coins)
        let asked = {
            try app.parties.store.database.recentNotifications(limit: 100).filter { $0.notification.kind == .consumptionRequest }
                .map(\.notification.refundRequestReason)
        }
        let declined = try #require(app.parties.store.declineRefund(account: "alice", because: .UNSATISFIED_WITH_PURCHASE))
        #expect(try asked() == [.UNSATISFIED_WITH_PURCHASE])
        let refunded = try #require(app.parties.store.refund(account: "alice", because: .FULFILLMENT_ISSUE))
        #expect(try asked() == [.FULFILLMENT_ISSUE, .UNSATISFIED_WITH_PURCHASE])
        #expect(refunded == declined)
        #expect(try app.storeDetails([refunded])[refunded]?.cancellationReason == 1)
        // A refund the customer gave no such reason for is Apple's "another reason".
        let other = try #require(app.parties.store.refund(account: "alice"))
        #expect(try asked().first == .OTHER)
        #expect(try app.storeDetails([other])[other]?.cancellationReason == 0)
    }

    @Test("a subscription's refund reversed: the service is back until the period's end, and the backend grants it again")
    func reversedSubscription() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.buy(Self.monthly)
        let status = { app.parties.store.subscriptions(account: "alice").first { $0.productId == Self.monthly } }
        let expires = try #require(status()?.date)
        let running = try #require(status()?.state)
        #expect(app.parties.store.refund(transactionId: try app.latestChargeId()) != nil)  // named: a free trial is no paid purchase
        #expect(status()?.state == .revoked)
        #expect(try !app.parties.backend.accountNow(user: "alice").owned.contains(Self.monthly))
        // A refunded charge cannot be declined.
        #expect(app.parties.store.declineRefund(account: "alice") == nil)
        app.advance(60)
        #expect(app.parties.store.reverseRefund(account: "alice") != nil)
        #expect(try app.notificationKinds().suffix(2) == ["REFUND", "REFUND_REVERSED"])
        #expect(status()?.state == running)
        #expect(status()?.date == expires)
        #expect(try app.parties.backend.accountNow(user: "alice").owned.contains(Self.monthly))
        #expect(try app.revokedCredits().isEmpty)
        // It renews at the end of its period, as it would have.
        #expect(app.parties.store.nextSubscriptionEvent() == expires)
        #expect(app.parties.store.reverseRefund(account: "alice") == nil)
    }
}
