import Foundation
import IAPCore
import Testing

/// Found by the explorer once it let months pass: a restore retried without pause while the backend was down.
@Suite("A restore's verification backs off like any other")
struct RestoreBackOffTests {
    @Test("bought again while the backend is down: the free restore is retried with back-off, not every 0.2 s while the sheet is up")
    func restoreBacksOff() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        for _ in 0..<3 { app.press(.down) }  // Remove Ads
        app.press(.enter)
        app.advance(3)
        app.press(.escape, .char("b"))  // the backend goes down
        app.press(.enter)  // bought again: "already purchased", restored for free
        app.advance(60)
        let order = try #require(try app.clientOrders().first)
        #expect(order.attempts <= 6, "\(order.attempts) attempts in a minute")
        app.press(.char("b"))  // back: verified, finished
        app.advance(5)
        #expect(try app.clientOrders().isEmpty)
        #expect(try app.credits().count == 1)
    }
}
