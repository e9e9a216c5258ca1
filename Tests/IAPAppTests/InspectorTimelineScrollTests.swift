import IAPCore
import Testing

/// From a newcomer's walk: at 80×24 the inspector shows the timeline's last few lines only, and the keys pressed to look
/// further back were told as lines of their own, pushing the rest out.
@Suite("The inspector's timeline scrolls back")
struct InspectorTimelineScrollTests {
    @Test("PgUp shows older lines, PgDn the newest again; neither is told as a line of its own")
    func pages() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        for _ in 0..<3 { app.buy(StoreKitNamesTests.coins) }
        app.press(.char("i"))
        let newest = app.screen()
        #expect(!newest.contains("app launched as alice"), "\(newest)")
        for _ in 0..<6 { app.press(.pageUp) }
        let oldest = app.screen()
        #expect(oldest.contains("app launched as alice"), "\(oldest)")
        for _ in 0..<6 { app.press(.pageDown) }
        #expect(app.screen() == newest)
        #expect(!app.session.timeline.entries(.en).map(\.text).contains { $0.contains("PgUp") || $0.contains("PgDn") })
    }
}
