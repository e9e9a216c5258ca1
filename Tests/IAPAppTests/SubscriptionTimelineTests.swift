import Foundation
import IAPCore
import Testing

/// The inspector's timeline over the real parties: what the store does on its own clock is told as it reaches the app.
@Suite("The timeline of a subscription, over the real parties")
struct SubscriptionTimelineTests {
    @Test("a trial's first paid renewal and a refund from the inspector are told, in both languages")
    func renewalAndRefund() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        let monthly = shippedCatalog.firstIndex { $0.id == "com.iapsim.vip.monthly" }!
        for _ in 0..<monthly { app.press(.down) }
        app.press(.enter)
        app.advance(5)
        app.press(.escape)
        let due = try #require(app.parties.store.nextSubscriptionEvent())
        app.advance(due.timeIntervalSince(app.timers.now) + 1)
        app.advance(5)
        app.press(.char("i"), .char("r"))
        app.advance(1)
        let en = app.session.timeline.entries(.en).map(\.text), zh = app.session.timeline.entries(.zh).map(\.text)
        #expect(en.contains { $0.contains("com.iapsim.vip.monthly subscribed: Trial until") }, "\(en)")
        #expect(en.contains { $0.contains("a renewal of") }, "\(en)")
        #expect(en.contains { $0.contains("com.iapsim.vip.monthly renewed: Active · renews") }, "\(en)")
        #expect(en.contains { $0.contains("com.iapsim.vip.monthly refunded by Apple: Refunded · ended") }, "\(en)")
        #expect(en.contains { $0.contains("backend: alice no longer has com.iapsim.vip.monthly") }, "\(en)")
        #expect(zh.contains { $0.contains("已续期:生效中") } && zh.contains { $0.contains("Apple 已退款") }, "\(zh)")
        // The inspector shows it, a week after the purchase, in days and hours.
        let screen = app.screen()
        #expect(screen.contains("refunded by Apple") && screen.contains("  7d 00h "), "\(screen)")
    }
}
