import Foundation
import IAPCore
import Testing

@Suite("Purchase flow on the real parties and a virtual clock")
struct PurchaseFlowTests {
    @Test("login, buy the first product: purchasing → confirming → complete, one credit, finished, nothing pending")
    func buyFirstProduct() throws {
        let app = try Harness()
        app.advance(1)
        #expect(app.screen().contains("Log in as:"))
        app.type("alice")
        app.press(.enter)
        app.advance(0.5)
        #expect(app.screen().contains("60 Coins"))
        app.press(.enter)
        #expect(app.state.hud?.kind == .purchasing)
        #expect(app.screen().contains("Purchasing…"))
        app.advance(1.3)
        #expect(app.screen().contains("Confirming payment…"))
        app.advance(1.2)
        #expect(app.screen().contains("Purchase complete"))
        #expect(app.screen().contains("Balance 60 coins"))

        let credits = try app.credits()
        #expect(credits.map(\.user) == ["alice"])
        #expect(credits.map(\.productId) == ["com.iapsim.coins.60"])
        let store = try app.storeTransactions()
        #expect(store.count == 1 && store[0].finished && store[0].0.state == .purchased)
        #expect(try app.clientOrders().isEmpty)
        app.press(.escape)
        #expect(app.state.hud == nil)
    }

    @Test("the HUD after a non-consumable's purchase names it and its price, without a coin balance it did not change")
    func ownedProductSuccessHasNoBalance() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.select("com.iapsim.noads")
        app.press(.enter)
        app.advance(5)
        let lines = app.screen().split(separator: "\n").map(String.init)
        let product = try #require(lines.firstIndex { $0.contains("Remove Ads · ¥18") })
        #expect(lines[product - 1].contains("Purchase complete"))
        #expect(!lines[product + 1].contains("Balance"))
    }

    @Test("Esc on the payment sheet cancels: nothing charged, nothing credited, the transaction finished")
    func cancelDuringPurchasing() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.press(.enter)
        app.advance(0.3)
        app.press(.escape)
        #expect(app.screen().contains("Purchase cancelled"))
        app.advance(5)
        #expect(try app.credits().isEmpty)
        let store = try app.storeTransactions()
        #expect(store.count == 1 && store[0].0.state == .failed && store[0].0.error == .cancelled && store[0].finished)
    }

    @Test("past its quick retries the HUD says what retries it next, rather than a retry count that no longer moves")
    func quickRetriesSpent() throws {
        let app = try Harness(user: "alice", faults: [.backendDown])
        app.advance(0.5)
        app.press(.enter)
        app.advance(120)
        let spent = app.screen()
        #expect(spent.contains("retry 5 · f (back to the foreground) retries") && !spent.contains("next in"), "\(spent)")
        // The inspector's row of the order says it too (found in a QA walk: "×5" alone).
        app.press(.char("i"))
        let id = try #require(try app.clientOrders().first?.transactionId)
        #expect(app.screen(width: 120, height: 40).contains("\(id) ×5 f retries"), "\(app.screen(width: 120, height: 40))")
        app.press(.char("i"))
        app.press(.char("f"))
        app.advance(1)
        #expect(app.screen().contains("retry 6 · next in"), "\(app.screen())")
    }

    @Test("backend down: the HUD counts retries, Esc leaves it pending, backend back up credits it once")
    func backendDownThenUp() throws {
        let app = try Harness(user: "alice", faults: [.backendDown])
        app.advance(0.5)
        app.press(.down, .enter)
        app.advance(5)
        let screen = app.screen()
        #expect(screen.contains("Confirming payment…"))
        #expect(screen.contains("retry"))
        #expect(screen.contains("next in"))
        #expect(screen.contains("backend down"))
        app.press(.escape)
        #expect(app.screen().contains("pending 1"))
        #expect(try app.clientOrders().map(\.productId) == ["com.iapsim.coins.300"])
        #expect(try app.storeTransactions().allSatisfy { !$0.finished })

        app.press(.char("b"))
        app.advance(2)
        #expect(try app.credits().map(\.transactionId) == (try app.storeTransactions().map(\.0.id)))
        #expect(app.screen().contains("pending 0"))
        #expect(try app.storeTransactions().allSatisfy(\.finished))
        #expect(try app.clientOrders().isEmpty)
    }

    @Test("killed while pending: the relaunch asks 'Unfinished order found', Continue credits it once")
    func killThenContinue() throws {
        let app = try Harness.paidWhile()
        try app.relaunch(faults: [])
        app.advance(0.5)
        let screen = app.screen()
        #expect(screen.contains("Unfinished order found"))
        #expect(screen.contains("60 Coins · ¥6"))
        #expect(screen.contains("[ Continue ]"))
        app.press(.enter)
        #expect(app.screen().contains("Confirming payment…"))
        app.advance(1.5)
        #expect(app.screen().contains("Purchase complete"))
        #expect(try app.credits().count == 1)
        #expect(try app.storeTransactions().allSatisfy(\.finished))
        #expect(try app.clientOrders().isEmpty)
    }

    @Test("the relaunch's prompt waits for the product list, so that it names what was bought from its first frame, never the raw product id (found by QA: the id showed for 0.3 s)")
    func promptNamesTheProduct() throws {
        let app = try Harness.paidWhile()
        try app.relaunch(faults: [])
        var frames: [String] = []
        for _ in 0..<10 {
            frames.append(app.screen())
            app.advance(0.1)
        }
        #expect(frames.allSatisfy { !$0.contains("com.iapsim.") }, "\(frames.first { $0.contains("com.iapsim.") } ?? "")")
        #expect(frames.last?.contains("Unfinished order found") == true && frames.last?.contains("60 Coins · ¥6") == true)
    }

    @Test("an interrupted payment reported failed, then completed by Apple: the HUD follows it to Purchase complete rather than saying it failed over the new balance (found by QA with failed-then-purchased)", arguments: [StoreKitMode.one, .two])
    func interruptedThenCompleted(storeKit: StoreKitMode) throws {
        let app = try Harness(user: "alice", faults: .once(.failedThenPurchased), storeKit: storeKit)
        app.advance(0.5)
        app.press(.enter)
        app.advance(1.2)
        #expect(app.screen().contains("Purchase failed"), "\(app.screen())")
        app.advance(5)
        #expect(try app.credits().count == 1)
        let screen = app.screen()
        #expect(screen.contains("Purchase complete") && !screen.contains("Purchase failed"), "\(screen)")
    }

    @Test("the quit question outlives the purchase it asks about: it then says nothing is in flight, and y still quits (found by QA: it asked 'in flight' over Purchase complete; then it vanished and the y pressed next did nothing)")
    func quitQuestionOutlivesThePurchase() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.press(.enter, .char("q"))
        #expect(app.state.modal == .quitConfirm)
        #expect(app.screen().contains("A purchase is in flight. Quit anyway?"))
        app.advance(5)
        #expect(try app.credits().count == 1)
        #expect(app.state.modal == .quitConfirm && app.screen().contains("Nothing is in flight any more. Quit now?")
                && !app.screen().contains("Quit anyway?"), "\(app.screen())")
        let zh = app.session.screen(lang: .zh).text
        #expect(zh.contains("已没有进行中的购买,现在退出吗?"), "\(zh)")
        app.press(.char("y"))
        #expect(app.state.quitting, "y quits once the purchase is over, as it would have before")
    }

    @Test("Esc after the purchase is over stays, and the purchase's outcome is on screen")
    func quitQuestionAnsweredNo() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.press(.enter, .char("q"))
        app.advance(5)
        app.press(.escape)
        #expect(app.state.modal == nil && app.screen().contains("Purchase complete"), "\(app.screen())")
    }

    @Test("Later keeps the order pending and the next launch asks again")
    func laterAsksAgain() throws {
        let app = try Harness.paidWhile()
        try app.relaunch(faults: [])
        app.advance(0.5)
        app.press(.escape)
        app.advance(60)
        #expect(app.state.modal == nil)
        #expect(try app.credits().isEmpty)
        #expect(app.screen().contains("pending 1"))
        try app.relaunch()
        app.advance(0.5)
        #expect(app.screen().contains("Unfinished order found"))
    }

    /// Alice with the first `count` shipped products bought while the backend is down: each order pending.
    private func pendingWithBackendDown(_ count: Int) throws -> Harness {
        let app = try Harness(user: "alice", faults: [.backendDown], serial: false)
        app.advance(0.5)
        for product in shippedCatalog.prefix(count) {
            app.buy(product.id)
            app.advance(3)
            app.press(.escape)
        }
        return app
    }

    @Test("the log-out warning lists as many pending orders as the screen has room for (found in a QA walk: 4 listed and \"+4\" at 80×24, with rows to spare)")
    func logoutWarningUsesTheRoom() throws {
        // Eight products, each once: the store refuses a product whose last purchase is unfinished (the ninth, Yearly VIP,
        // would change the plan VIP Plus started rather than be bought).
        let app = try pendingWithBackendDown(8)
        #expect(app.state.pendingCount == 8, "\(app.screen())")
        app.press(.char("L"))
        let screen = app.screen(width: 80, height: 24)
        #expect(screen.contains("Orders still pending — log out anyway?"), "\(screen)")
        #expect((1...8).allSatisfy { screen.contains("tx \(1_000_000_000 + $0)") }, "\(screen)")
        #expect(!screen.contains("+"), "\(screen)")
    }

    @Test("the log-out warning lists the orders oldest first and keeps them in place while their retries run (found in a bad-input walk: the rows reshuffled every few seconds)")
    func logoutWarningHoldsStill() throws {
        let app = try pendingWithBackendDown(4)
        app.press(.char("L"))
        func listed() -> [String] {
            app.screen(width: 80, height: 24).split(separator: "\n").compactMap { line in line.range(of: "tx 100").map { String(line[$0.lowerBound...].prefix(13)) } }
        }
        let first = listed()
        #expect(first == (1...4).map { "tx \(1_000_000_000 + $0)" }, "\(app.screen())")
        for _ in 0..<6 {
            app.advance(7)
            #expect(listed() == first, "\(app.screen())")
        }
    }

    @Test("user A's pending order never prompts, verifies or credits under B, and is credited to A when A returns")
    func perUserIsolation() throws {
        let app = try Harness.paidWhile()
        app.press(.escape, .char("L"))
        #expect(app.screen().contains("Orders still pending — log out anyway?"))
        app.press(.enter)  // Stay is the default
        #expect(app.state.user == "alice")
        app.press(.char("L"), .right, .enter)
        #expect(app.state.user == nil)

        try app.relaunch(user: "bob", faults: [])
        app.advance(30)
        #expect(app.state.modal == nil)
        #expect(app.screen().contains("user bob · pending 0"))
        #expect(try app.credits().isEmpty)
        #expect(try app.clientOrders().map(\.user) == ["alice"])

        app.press(.char("L"))
        app.type("alice")
        app.press(.enter)
        app.advance(0.5)
        #expect(app.screen().contains("Unfinished order found"))
        app.press(.enter)
        app.advance(2)
        #expect(try app.credits().map(\.user) == ["alice"])
    }

    @Test("serial policy: with an order unfinished, Enter on a product offers to continue it instead of buying")
    func serialPolicy() throws {
        let app = try Harness.paidWhile()
        app.press(.escape, .down, .enter)
        #expect(app.screen().contains("Unfinished order found"))
        #expect(try app.storeTransactions().count == 1)
    }

    @Test("Later on the serial prompt puts the order off: the inspector says so instead of a retry that never comes")
    func laterIsShown() throws {
        let app = try Harness.paidWhile()
        app.press(.escape, .down, .enter)
        #expect(app.screen().contains("Unfinished order found"))
        app.press(.escape)
        app.advance(30)
        app.press(.char("i"))
        let row = app.screen().split(separator: "\n").first { $0.contains("×1") }.map(String.init) ?? ""
        #expect(!row.contains("next in") && row.contains("×1 Later"), "\(row)")
        // The next trigger (the backend back) wakes it as before.
        app.press(.escape, .char("b"))
        app.advance(3)
        #expect(try app.credits().map(\.user) == ["alice"])
    }

    @Test("an order whose prompt is up waits for its answer: the inspector says so, not a retry stuck at \"next in 0s\" (found by QA at a relaunch)")
    func askedIsShown() throws {
        let app = try Harness.paidWhile()
        app.press(.escape, .down, .enter)
        #expect(app.screen().contains("Unfinished order found"))
        app.advance(30)
        app.press(.char("i"))
        let row = app.screen().split(separator: "\n").first { $0.contains("×1") }.map(String.init) ?? ""
        #expect(!row.contains("next in") && row.contains("×1 awaits you"), "\(row)")
        app.press(.escape)
        #expect(app.screen().contains("Unfinished order found"))
    }

    @Test("quick retries stop after five; a trigger starts them again")
    func quickRetriesThenTrigger() throws {
        let app = try Harness(user: "alice", faults: [.backendDown])
        app.advance(0.5)
        app.press(.enter)
        app.advance(600)
        #expect(try app.clientOrders().first?.attempts == 5)
        app.advance(600)
        #expect(try app.clientOrders().first?.attempts == 5)
        app.press(.char("b"))  // the backend comes back: a trigger
        app.advance(2)
        #expect(try app.credits().count == 1)
    }

    @Test("t skips the back-off wait: the next retry happens at once, and the HUD counts it")
    func skipTime() throws {
        let app = try Harness.paidWhile()
        app.advance(1)
        let before = try #require(try app.clientOrders().first?.attempts)
        #expect(app.screen().contains("next in"))
        app.press(.char("t"))
        app.advance(0)
        app.press(.char("t"))
        app.advance(0)
        #expect(try app.clientOrders().first?.attempts == before + 1)
        #expect(app.screen().contains("retry \(before + 1)"))
    }

    @Test("coming back to the foreground retries a parked order at once")
    func foregroundTrigger() throws {
        let app = try Harness(user: "alice", faults: [.backendDown])
        app.advance(0.5)
        app.press(.enter)
        app.advance(600)
        app.parties.faults.set(.backendDown, nil)  // the network came back without the app noticing
        app.advance(600)
        #expect(try app.credits().isEmpty)
        app.press(.char("f"))
        app.advance(2)
        #expect(try app.credits().count == 1)
    }

    @Test("applicationUsername came back empty: the order made before paying is used, the buyer is credited")
    func emptyApplicationUsername() throws {
        let app = try Harness.paidWhile([.emptyApplicationUsername])
        let credits = try app.credits()
        #expect(credits.map(\.user) == ["alice"])
        #expect(credits.map(\.orderId) == ["ORD-000001"])
        #expect(try app.storeTransactions().first?.0.applicationUsername == nil)
    }

    @Test("payments disabled: 'Please enable In-App Purchases', nothing reaches the store")
    func paymentsDisabled() throws {
        let app = try Harness(user: "alice", faults: [.paymentsDisabled])
        app.advance(0.5)
        app.press(.enter)
        #expect(app.screen().contains("Please enable In-App Purchases"))
        #expect(try app.storeTransactions().isEmpty)
    }

    @Test("q while a purchase is in flight asks first; y quits")
    func quitAsksDuringPurchase() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.press(.enter, .char("q"))
        #expect(app.state.modal == .quitConfirm)
        #expect(!app.state.quitting)
        app.press(.char("y"))
        #expect(app.state.quitting)
    }
}

/// From a QA walk: at --speed 1000 (and with a slow backend at any speed) the app's look at the store's queue five
/// seconds after paying found the transaction still being verified, and the timeline told it as delivered again
/// ("Transaction.updates: tx … purchased" in StoreKit 2), which StoreKit never does.
@Suite("The look again after paying tells only what is new")
struct LookAgainTests {
    @Test("a slow backend: the purchased transaction is told once, whichever StoreKit", arguments: [StoreKitMode.one, .two])
    func toldOnce(storeKit: StoreKitMode) throws {
        let app = try Harness(user: "alice", storeKit: storeKit)
        app.advance(0.5)
        app.session.set(.backendSlow, FaultArm(value: "10"))
        app.press(.enter)
        app.advance(30)
        let id = try #require(try app.credits().first?.transactionId)
        let said = app.session.timeline.entries(.en).map(\.text)
        let delivered = said.filter { $0.hasPrefix("store: tx \(id) purchased") || $0.hasPrefix("Transaction.updates: tx \(id)") }
        #expect(delivered.count == (storeKit == .one ? 1 : 0), "\(said)")
        #expect(try app.credits().count == 1)
    }
}

/// From a QA walk: bob's Restore of what alice bought with the same Apple ID moved it to bob (transfer), and the
/// timeline said "valid, credited" though nothing new was credited: a trainer read it as a second payment.
@Suite("The timeline tells a credit made before from a new one")
struct CreditedBeforeTests {
    @Test("a restore moved to bob, and a free re-buy, are valid and already credited: no second credit", arguments: [StoreKitMode.one, .two])
    func restoreSaysCreditedBefore(storeKit: StoreKitMode) throws {
        let app = try Harness.aliceBoughtThenBob("com.iapsim.noads", policy: .transfer, storeKit: storeKit)
        app.press(.char("R"))
        app.advance(5)
        let said = app.session.timeline.entries(.en).map(\.text)
        let bought = try #require(said.firstIndex { $0.contains("valid, credited") && !$0.contains("before") }, "\(said)")
        let restored = said[(bought + 1)...].filter { $0.contains(" valid") }
        // StoreKit 2's Restore sends the entitlement itself, whose answer says only who holds it.
        let words = storeKit == .one ? "already credited: this check adds no second credit" : "held by bob"
        #expect(!restored.isEmpty && restored.allSatisfy { $0.contains(words) && !$0.hasSuffix("credited") }, "\(restored)")
        #expect(try app.credits().count == 1)
    }

    @Test("a renewal the backend credited on Apple's notification, before the app verified it, reads as credited, not as nothing new (found by QA: read as a renewal not credited, against I7)")
    func renewalCreditedOnTheNotification() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.buy("com.iapsim.vip.plus")
        let due = try #require(app.parties.store.nextSubscriptionEvent())
        app.advance(due.timeIntervalSince(app.timers.now) + 5)
        let renewal = try #require(try app.credits().last?.transactionId)
        let said = app.session.timeline.entries(.en).map(\.text)
        let verified = try #require(said.first { $0.hasPrefix("backend: tx \(renewal) valid") }, "\(said)")
        #expect(verified.contains("already credited") && !verified.contains("nothing new"), "\(verified)")
        #expect(try app.credits().filter { $0.transactionId == renewal }.count == 1)
    }
}

@Suite("The timeline counts in words that agree")
struct TimelineGrammarTests {
    @Test("one failed try is \"1 try\", not \"1 tries\"")
    func oneTry() throws {
        let app = try Harness.paidWhile()
        let said = app.session.timeline.entries(.en).map(\.text)
        #expect(said.contains { $0.contains(", 1 try ") } && !said.contains { $0.contains("1 tries") }, "\(said)")
    }
}

/// From a QA walk: Yearly VIP bought on 15 Jan read "Active · renews 15 Jan", as if due that day.
@Suite("A subscription's date names its year when it is not this year's")
struct SubscriptionDateYearTests {
    @Test("Yearly VIP renews next year: the product list and the subscriptions panel say which year")
    func year() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.buy("com.iapsim.vip.yearly")
        app.advance(3)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let next = String(calendar.component(.year, from: app.state.now) + 1)
        let row = app.screen(width: 100).split(separator: "\n").first { $0.contains("Yearly VIP") }.map(String.init) ?? ""
        #expect(row.contains("renews") && row.contains(next), "\(row)")
        app.press(.char("m"))
        #expect(app.screen(width: 100).contains(next), "\(app.screen(width: 100))")
        app.press(.escape, .char("l"))
        #expect(app.screen(width: 100).contains(next + "年"), "\(app.screen(width: 100))")
    }
}

/// From a QA walk: after Monthly VIP's free week was upgraded to VIP Plus, `t` jumped a week to the trial's old end,
/// where nothing happened, before a second `t` reached the renewal.
@Suite("t skips to the next thing that happens")
struct SkipToNextTests {
    @Test("after an upgrade out of a free trial, one t reaches VIP Plus's renewal, not the trial's old end")
    func upgradeThenSkip() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.buy("com.iapsim.vip.monthly")
        app.advance(3)
        app.buy("com.iapsim.vip.plus")
        app.advance(3)
        let charges = try app.charges().count
        let before = app.state.now
        app.press(.char("t"))
        app.advance(3)
        #expect(try app.charges().count == charges + 1, "\(app.state.now.timeIntervalSince(before) / 86_400) days later")
    }

    /// From a QA walk: the first `t` after a purchase reached only the queue's look again in case the payment's callback
    /// was lost, where nothing is seen to happen; a second `t` was needed for the renewal.
    @Test("right after a subscription's purchase, one t reaches its renewal")
    func purchaseThenSkip() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.buy("com.iapsim.vip.plus")
        app.advance(3)
        #expect(app.screen().contains("VIP Plus     Active · renews"))
        let charges = try app.charges().count
        app.press(.char("t"))
        app.advance(1)
        #expect(try app.charges().count == charges + 1)
    }

    /// From QA's walk of the fix above: with the callback really lost, the look again is what happens next, and `t` did
    /// nothing.
    @Test("the payment's callback lost (observer-lost): t reaches the look again that finds it")
    func lostCallbackThenSkip() throws {
        let app = try Harness(user: "alice", faults: .once(.observerLost))
        app.advance(0.5)
        app.press(.enter)
        app.advance(2)
        #expect(app.screen().contains("Purchasing…"))
        app.press(.char("t"))
        app.advance(3)
        #expect(try app.credits().count == 1)
    }
}

/// From a QA walk: with the signed transaction failing the server's check, the queue's recheck 5 s later was told as
/// `purchase(options:) → success` a second time; a trainer teaches that the call returns once.
@Suite("StoreKit 2: purchase(options:) returns once in the timeline")
struct PurchaseReturnsOnceTests {
    @Test("an unverified transaction retried: one purchase(options:) → success line")
    func once() throws {
        var faults = ArmedFaults()
        let (fault, arm) = try ArmedFaults.parse("unverified-transaction=signature")
        faults.insert(fault, arm)
        let app = try Harness(user: "alice", faults: faults, storeKit: .two)
        app.advance(0.5)
        app.press(.enter)
        app.advance(15)
        let said = app.session.timeline.entries(.en).map(\.text)
        #expect(said.filter { $0.contains("purchase(options:) → success") }.count == 1, "\(said)")
    }
}
