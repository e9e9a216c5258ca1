import IAPCore
import Testing

/// From a newcomer's walk: at 80×24 the inspector shows the timeline's last few lines only, and the keys pressed to look
/// further back were told as lines of their own, pushing the rest out.
@Suite("The inspector's timeline scrolls back")
struct InspectorTimelineScrollTests {
    @Test("PgUp shows older lines, PgDn the newest again; neither is told as a line of its own")
    func pages() throws {
        let app = try Harness.inspecting(purchases: 3)
        let newest = app.screen()
        #expect(!newest.contains("app launched as alice"), "\(newest)")
        // Six lines a page at 80×24: far enough back for the first line.
        for _ in 0..<12 { app.press(.pageUp) }
        let oldest = app.screen()
        #expect(oldest.contains("app launched as alice"), "\(oldest)")
        for _ in 0..<12 { app.press(.pageDown) }
        #expect(app.screen() == newest)
        #expect(!app.session.timeline.entries(.en).map(\.text).contains { $0.contains("PgUp") || $0.contains("PgDn") })
        // `?` says so where the keys are listed.
        app.press(.char("?"))
        #expect(app.session.screen(width: 120, height: 60).text.contains("page up/down (lists, e, i)"))
    }
}

/// From a QA walk: at 80×24 the timeline shows six lines, and PgUp went back ten, so four lines of every page were never seen.
@Suite("The inspector's timeline turns by the page it shows")
struct InspectorTimelinePageTests {
    /// Wide enough that no line is cut: how many lines the timeline shows depends on the height alone.
    @Test("PgUp at 24 and 18 lines: every line of the timeline is seen on some page", arguments: [24, 18])
    func noLineSkipped(height: Int) throws {
        let app = try Harness.inspecting(purchases: 3)
        var seen = app.session.screen(width: 300, height: height).text
        let entries = app.session.timeline.entries(.en).map(\.text)
        for _ in 0..<entries.count { app.press(.pageUp); seen += app.session.screen(width: 300, height: height).text }
        let missed = entries.filter { !seen.contains($0) }
        #expect(missed.isEmpty, "never shown: \(missed)")
    }
}

/// From a QA walk: at 64×18 the backend column showed the credits that fitted and nothing said there were more.
@Suite("An inspector column longer than the screen counts what it leaves out")
struct InspectorColumnOverflowTests {
    @Test("seven credits at 64×18: the backend column ends with +N, N the rows not shown")
    func counted() throws {
        let app = try Harness.inspecting(purchases: 7)
        // The backend column: the third of three, 20 columns each after a margin of one.
        let column = app.session.screen(width: 64, height: 18).text.split(separator: "\n").map { $0.dropFirst(41).trimmingCharacters(in: .whitespaces) }
        let shown = column.filter { $0.hasSuffix(" +60") }.count
        let more = column.compactMap { $0.hasPrefix("+") ? Int($0.dropFirst()) : nil }
        #expect(more.count == 1 && shown + (more.first ?? 0) == 7, "\(column.joined(separator: "\n"))")
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

    /// alice bought the first coins `purchases` times, and the inspector is open.
    static func inspecting(purchases: Int) throws -> Harness {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        for _ in 0..<purchases { app.buy(StoreKitNamesTests.coins) }
        app.press(.char("i"))
        return app
    }
}

/// From a QA walk: walking the fault panel told 26 lines of `key ↓`, and pushed the purchase pages back.
@Suite("Moving a cursor is not news in the timeline")
struct CursorKeysUntoldTests {
    @Test("↓, ↑, PgDn, Home and End in the fault panel and the product list add no line; Enter still does")
    func untold() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        let before = app.session.timeline.entries(.en).count
        app.press(.down, .down, .up, .end, .home)
        app.press(.char("F"))
        let opened = app.session.timeline.entries(.en).count
        for _ in 0..<10 { app.press(.down) }
        app.press(.pageDown, .home)
        let said = app.session.timeline.entries(.en).map(\.text)
        #expect(opened == before + 1 && said.count == opened, "\(said.suffix(15))")
        app.press(.enter)
        #expect(app.session.timeline.entries(.en).count > said.count)
    }
}

/// From a QA walk: logging out and in again read "key L" and "key Enter → read the user's orders": nothing said who.
@Suite("The timeline says who logged out and who logged in")
struct LoginTimelineTests {
    @Test("L then bob's login: \"alice logged out\", \"bob logged in\", in both languages")
    func said() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.logIn("bob")
        let en = app.session.timeline.entries(.en).map(\.text).joined(separator: "\n")
        #expect(en.contains("key L → alice logged out") && en.contains("bob logged in"), "\(en)")
        let zh = app.session.timeline.entries(.zh).map(\.text).joined(separator: "\n")
        #expect(zh.contains("alice 已登出") && zh.contains("bob 已登录"), "\(zh)")
    }
}

/// From a QA walk: the timeline's times were counted from its oldest line kept, so past its capacity every time on it
/// moved back as lines were dropped, and a later line could read earlier than one seen before.
@Suite("The inspector's timeline counts from the launch")
struct InspectorTimelineClockTests {
    @Test("a minute after the launch and past the lines the timeline keeps, its newest line still says a minute")
    func fromTheLaunch() throws {
        let app = try Harness(user: "alice")
        app.advance(60)
        for _ in 0..<110 { app.press(.char("l"), .char("l")) }  // more lines than the timeline keeps
        app.press(.char("i"))
        let screen = app.screen()
        #expect(screen.contains("60.0s key i"), "\(screen)")
    }
}

/// From a QA walk: `r` with nothing the Apple ID could have refunded showed only the key's own line, as if Apple had yet
/// to answer.
@Suite("The inspector's r says what Apple refunded, or that there was nothing")
struct InspectorRefundAnswerTests {
    @Test("r before any purchase: nothing to refund; after one: the transaction refunded, in both languages")
    func answered() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.press(.char("i"), .char("r"))
        app.advance(0.5)
        #expect(app.session.timeline.entries(.en).last?.text.contains("Apple: nothing to refund") == true,
                "\(app.session.timeline.entries(.en).map(\.text))")
        #expect(app.session.timeline.entries(.zh).last?.text.contains("Apple:没有可退款的购买") == true)
        app.press(.escape)
        app.buy("com.iapsim.coins.60")
        let bought = try app.latestChargeId()
        let lines = Self.refundByR(app)
        // Which purchase it was, by name: the Apple ID's latest may be another app user's (found by a trainer's walk).
        #expect(lines.contains { $0.contains("Apple: tx \(bought) refunded (60 Coins)") }, "\(lines)")
        #expect(app.session.timeline.entries(.zh).contains { $0.text.contains("Apple:tx \(bought)(60 金币)已退款") },
                "\(app.session.timeline.entries(.zh).map(\.text))")
    }

    /// `r` in the inspector, Apple's answer taken: the timeline's lines in English.
    private static func refundByR(_ app: Harness) -> [String] {
        app.press(.char("i"), .char("r"))
        app.advance(0.5)
        return app.session.timeline.entries(.en).map(\.text)
    }

    @Test("r refunds the latest purchase Apple charged money for: a free trial after it charged nothing, so the coins before it are refunded (found by QA: the trial was refunded)")
    func freeTrialIsNotRefunded() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.buy("com.iapsim.coins.980")
        let coins = try app.latestChargeId()
        app.buy("com.iapsim.vip.monthly")
        #expect(app.state.subscriptions.first?.state == .trial, "\(app.state.subscriptions)")
        let lines = Self.refundByR(app)
        #expect(lines.contains { $0.contains("Apple: tx \(coins) refunded") }, "\(lines)")
    }

    @Test("r says it is the Apple ID's latest purchase Apple refunds, whichever app user is logged in (found by QA: it named bob for alice's coins)")
    func refundIsTheAppleIds() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.buy("com.iapsim.coins.980")
        app.logIn("bob")
        let lines = Self.refundByR(app)
        #expect(!lines.contains { $0.contains("bob's latest purchase") } && lines.contains { $0.contains("Apple refunds the signed-in Apple ID's latest purchase, a paid one first") },
                "\(lines)")
    }
}
