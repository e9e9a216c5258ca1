import Foundation
import IAPCore
import Testing

@Suite("A large backlog of pending orders")
struct BacklogTests {
    @Test("10,000 pending orders at login: the first is asked about, the count is right, nothing is verified under another user")
    func tenThousandPending() throws {
        let app = try Harness(user: "alice")
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for i in 0..<10_000 {
            try app.parties.vault.save(PendingOrder(
                transactionId: String(2_000_000_000 + i), user: i.isMultiple(of: 10) ? "bob" : "alice",
                productId: "com.iapsim.coins.60", orderId: nil, purchasedAt: start.addingTimeInterval(Double(i)),
                price: "¥6", receiptHash: nil, attempts: i % 3))
        }
        try app.relaunch(user: "alice")
        app.advance(0.5)
        #expect(app.state.pendingCount == 9_000)
        #expect(app.screen().contains("pending 9000"))
        // Never-verified first, then the oldest: the first order alice holds with no attempts.
        #expect(app.state.modal == .unfinished(transactionId: "2000000003", choice: 0))
        app.press(.escape)
        #expect(app.state.modal == .unfinished(transactionId: "2000000006", choice: 0))
        #expect(!app.state.orders.keys.contains("2000000000"))  // bob's
    }
}
