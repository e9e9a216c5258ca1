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
}
