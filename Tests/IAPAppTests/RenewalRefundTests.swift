import AppleVocabulary
import AppleWire
import Foundation
import IAPApp
@testable import MockStore
import Testing

/// A refund takes back what was refunded: one charge of a subscription, not the charges before it.
@Suite("Refunding a renewal")
struct RenewalRefundTests {
    static let plus = "com.iapsim.vip.plus"

    @Test("Apple refunds a subscription's third charge: the backend takes back that charge's credit and the entitlement, and keeps the first two charges' credits (found by QA: it took back the first purchase's too)",
          arguments: [false, true])
    func onlyTheRefundedCharge(serverAPI: Bool) throws {
        let app = try Harness(user: "alice", storeKit: serverAPI ? .two : .one, serverAPI: serverAPI)
        app.advance(0.5)
        app.buy(Self.plus)
        for _ in 0..<2 {
            let due = try #require(app.parties.store.nextSubscriptionEvent())
            app.advance(due.timeIntervalSince(app.timers.now) + 5)
        }
        app.press(.char("f"))
        app.advance(3)
        let charges = try app.charges().map(\.transaction.id)
        #expect(charges.count == 3)
        #expect(try Set(app.credits().map(\.transactionId)).isSuperset(of: charges))
        let refunded = try #require(app.parties.store.refund(transactionId: charges[2]))
        #expect(refunded == charges[2])
        app.advance(3)
        #expect(try app.revokedCredits().map(\.credit.transactionId) == [charges[2]])
        #expect(try app.parties.backend.database.entitlements().first?.revokedAt != nil)
    }

    @Test("a refunded subscription renews no more, and says so: auto-renew off in renewal info, verifyReceipt's pending renewal and StoreKit 2's status, as Apple cancels a subscription it refunds; back on when Apple reverses the refund (found by a server developer's walk)")
    func refundedSaysItWillNotRenew() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.buy(Self.plus)
        let original = try app.latestChargeId()
        let records = app.appleRecords
        func renewing() throws -> (jws: Int, receipt: String?, storeKit: Bool?) {
            let chain = try #require(try records.subscription(original: original))
            return (JWSRenewalInfo(chain, signedAt: app.timers.now).autoRenewStatus, chain.renewal.auto_renew_status,
                    app.parties.store.subscriptions(account: "alice").first?.willAutoRenew)
        }
        #expect(try renewing() == (1, "1", true))
        #expect(app.parties.store.refund(transactionId: original) == original)
        #expect(app.parties.store.subscriptions(account: "alice").first?.state == .revoked)
        #expect(try renewing() == (0, "0", false))
        #expect(app.parties.store.reverseRefund(transactionId: original) != nil)
        #expect(try renewing() == (1, "1", true))
    }
}
