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
        // `?` says so where the keys are listed.
        app.press(.char("?"))
        #expect(app.session.screen(width: 120, height: 60).text.contains("page up/down (timeline too)"))
    }
}

/// From a newcomer's walk: with bob logged in, alice's payment waiting in her keychain showed in the store column by its
/// id and the end of its token only, nothing saying whose it is or why bob's app leaves it alone.
@Suite("The inspector's store column names who holds each unfinished transaction")
struct InspectorHolderTests {
    @Test("alice's payment, waiting while the backend is down, reads as hers in bob's inspector", arguments: [StoreKitMode.one, .two])
    func heldByAlice(storeKit: StoreKitMode) throws {
        let app = try Harness.aliceLeftUnfinished(StoreKitNamesTests.coins, storeKit: storeKit)
        app.press(.char("i"))
        let row = app.screen().split(separator: "\n").first { $0.contains("1000000001") }
        #expect(row?.contains("alice") == true, "\(app.screen())")
    }
}

/// From a newcomer's walk: bob's purchase of what alice left unfinished said only "Purchase failed".
@Suite("A purchase StoreKit refuses while the product's last transaction is unfinished says why")
struct AlreadyPendingTests {
    @Test("the HUD names the unfinished purchase, in both languages", arguments: [StoreKitMode.one, .two])
    func says(storeKit: StoreKitMode) throws {
        let app = try Harness.aliceLeftUnfinished("com.iapsim.noads", storeKit: storeKit)
        app.select("com.iapsim.noads")
        app.press(.enter)
        app.advance(3)
        #expect(app.screen().contains("not finished yet"), "\(app.screen())")
        // StoreKit 2 has no error of that name: the timeline says what the call throws, and why.
        let said = app.session.timeline.entries(.en).map(\.text).joined(separator: "\n")
        let expected = storeKit == .two ? "purchase(options:) → StoreKitError.unknown (an earlier purchase is unfinished)" : "(already-pending)"
        #expect(said.contains(expected) && (storeKit == .one || !said.contains("already-pending")), "\(said)")
        app.press(.char("l"))
        #expect(app.screen().contains("尚未结束"), "\(app.screen())")
    }
}

extension Harness {
    /// Alice bought `productId` while the backend was down, so its transaction waits unfinished in her keychain; then
    /// bob logged in on the same phone.
    static func aliceLeftUnfinished(_ productId: String, storeKit: StoreKitMode) throws -> Harness {
        let app = try Harness(user: "alice", faults: [.backendDown], storeKit: storeKit)
        app.advance(0.5)
        app.buy(productId)
        app.logIn("bob")
        return app
    }
}
