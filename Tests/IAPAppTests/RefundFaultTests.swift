import Foundation
import IAPCore
import Testing

/// The `refund` fault: Apple refunds a purchase some seconds after it went through, on its own side.
@Suite("The refund fault: Apple takes a purchase back later, and the app is not handed it again")
struct RefundFaultTests {
    @Test("refunded after it was credited, finished and the app relaunched: the credit is revoked, and nothing comes back to the app", arguments: [
        0, 3,  // 60 Coins (consumable), Remove Ads (non-consumable)
    ])
    func refundedLater(index: Int) throws {
        var faults = ArmedFaults()
        faults.insert(.refund, FaultArm(value: "5", once: true))
        let app = try Harness(user: "alice", faults: faults)
        app.advance(0.5)
        for _ in 0..<index { app.press(.down) }
        app.press(.enter)
        app.advance(3)
        #expect(app.screen().contains("Purchase complete"))
        #expect(try app.credits().count == 1)
        try app.relaunch(user: "alice")  // the refund is Apple's plan, carried out on the store's clock in any run
        app.advance(10)
        let id = try #require(try app.storeRecords().first?.transaction.id)
        #expect(try app.revokedCredits().map(\.credit.transactionId) == [id])
        #expect(try app.storeRecords().allSatisfy(\.finished))
        #expect(try app.clientOrders().isEmpty)
        #expect(app.state.pendingCount == 0)
        #expect(app.state.hud == nil)
        #expect(try app.credits().isEmpty)
    }
}
