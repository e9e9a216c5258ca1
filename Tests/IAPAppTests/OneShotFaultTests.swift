import Foundation
import IAPApp
import IAPCore
import MockStore
import Testing

/// A one-shot fault (`:once`) does what it says once, at the step it names, and then the app goes on as without it
/// (issue 24, item 4): two purchases of the same consumable, the fault armed once before the first; its effect is
/// counted in what a person would look at (the store's records, the timeline), and both purchases end credited.
@Suite("One-shot faults: the effect happens exactly once")
struct OneShotFaultTests {
    /// How often the effect shows, read from the app after both purchases.
    struct Case: Sendable, CustomTestStringConvertible {
        let fault: Fault
        let value: String?
        /// Whether both purchases are paid (a fault that stops a payment leaves one).
        let paidBoth: Bool
        /// Nil: the timeline's "fault fired" line is the effect to count.
        var effects: (@Sendable (Harness) throws -> Int)?

        var testDescription: String { fault.rawValue + (value.map { "=" + $0 } ?? "") }
    }

    private static func said(_ app: Harness, _ words: String) -> Int {
        app.session.timeline.entries(.en).filter { $0.text.contains(words) }.count
    }

    private static func failed(_ app: Harness, _ error: StoreError) throws -> Int {
        try app.storeTransactions().filter { $0.0.error == error }.count
    }

    static let cases: [Case] = [
        Case(fault: .userCancels, value: nil, paidBoth: false) { try failed($0, .cancelled) },
        Case(fault: .purchaseFails, value: nil, paidBoth: false) { try failed($0, .paymentFailed) },
        Case(fault: .failedThenPurchased, value: nil, paidBoth: true) { try failed($0, .interrupted) },
        Case(fault: .emptyApplicationUsername, value: nil, paidBoth: true) {
            try $0.storeTransactions().filter { $0.0.state == .purchased && $0.0.applicationUsername == nil }.count
        },
        Case(fault: .receiptEmpty, value: nil, paidBoth: true) { said($0, "receipt empty") },
        Case(fault: .backendDown, value: nil, paidBoth: true) { said($0, "backend unreachable") },
        Case(fault: .backendTimeout, value: nil, paidBoth: true) { said($0, "timed out") },
        Case(fault: .backend5xx, value: "503", paidBoth: true) { said($0, "HTTP 503") },
        Case(fault: .verifyStatus, value: "21005", paidBoth: true),
        Case(fault: .refund, value: "2", paidBoth: true) {
            try $0.revokedCredits().count
        },
        Case(fault: .askToBuy, value: "decline", paidBoth: false) { try failed($0, .declined) },
        Case(fault: .observerLost, value: nil, paidBoth: true),
        Case(fault: .observerDelayed, value: "3", paidBoth: true),
        Case(fault: .duplicateCallback, value: nil, paidBoth: true),
        Case(fault: .finishNotFound, value: nil, paidBoth: true),
        Case(fault: .backendSlow, value: "5", paidBoth: true),
        Case(fault: .verificationPending, value: "1", paidBoth: true),
        Case(fault: .orderMissing, value: nil, paidBoth: true),
        Case(fault: .productMismatch, value: nil, paidBoth: true),
        Case(fault: .ledgerByTransactionId, value: nil, paidBoth: true),
    ]

    @Test("armed once, it acts once; both purchases end as they should", arguments: cases)
    func once(_ test: Case) throws {
        // Armed once the list is there, as with `o` in the fault panel: the next step it names is the purchase's.
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.session.set(test.fault, FaultArm(value: test.value, once: true))
        for _ in 0..<2 {
            // The first product, bought and waited for (retries, a timeout, an interrupted payment's second half, a
            // refund) before the HUD is dismissed: Esc earlier would give up a purchase still waiting for its order.
            for _ in shippedCatalog { app.press(.up) }
            app.press(.enter)
            app.advance(60)
            app.press(.escape)
        }
        let told = app.session.timeline.entries(.en).map(\.text)
        #expect(told.filter { $0 == "fault fired: \(test.fault.rawValue)" }.count == 1, "\(told)")
        if let effects = test.effects { #expect(try effects(app) == 1, "\(told)") }
        #expect(!app.parties.faults.armed.contains(test.fault), "still armed after it fired")
        let paid = try app.storeTransactions().filter { $0.0.state == .purchased }
        #expect(paid.count == (test.paidBoth ? 2 : 1))
        #expect(try app.credits().count + app.revokedCredits().count == paid.count)
        #expect(try app.clientOrders().isEmpty)
    }

    @Test("payments-disabled:once, armed at launch or in the panel, refuses the next purchase and no other", arguments: [true, false])
    func paymentsDisabledOnce(atLaunch: Bool) throws {
        var faults = ArmedFaults()
        if atLaunch { faults.insert(.paymentsDisabled, FaultArm(once: true)) }
        let app = try Harness(user: "alice", faults: faults)
        app.advance(0.5)
        if !atLaunch { app.session.set(.paymentsDisabled, FaultArm(once: true)) }
        for _ in shippedCatalog { app.press(.up) }
        app.press(.enter)
        app.advance(1)
        #expect(app.state.hud?.kind == .disabled)
        app.press(.escape, .enter)
        app.advance(10)
        #expect(app.state.hud?.kind == .success)
        #expect(!app.parties.faults.armed.contains(.paymentsDisabled))
        #expect(app.session.timeline.entries(.en).filter { $0.text == "fault fired: payments-disabled" }.count == 1)
    }
}

extension OneShotFaultTests {
    @Test("a product list that failed or came back empty is asked again when the app comes back to the foreground (f)",
          arguments: [Fault.productsFail, .productsEmpty])
    func productListRecoversOnForeground(_ fault: Fault) throws {
        var faults = ArmedFaults()
        faults.insert(fault, FaultArm(once: true))
        let app = try Harness(user: "alice", faults: faults)
        app.advance(1)
        #expect(app.state.productsStatus == (fault == .productsFail ? .failed : .empty))
        app.press(.char("f"))
        app.advance(1)
        #expect(app.state.productsStatus == .loaded)
    }

    @Test("a product list that failed is asked again at the next log in")
    func productListRecoversAtLogin() throws {
        var faults = ArmedFaults()
        faults.insert(.productsFail, FaultArm(once: true))
        let app = try Harness(faults: faults)
        app.advance(1)
        #expect(app.state.productsStatus == .failed)
        app.type("alice")
        app.press(.enter)
        app.advance(1)
        #expect(app.state.productsStatus == .loaded)
    }

    @Test("a product list that came back empty is asked again when the user comes back to the shop from a panel")
    func productListRecoversBackInTheShop() throws {
        var faults = ArmedFaults()
        faults.insert(.productsEmpty, FaultArm(once: true))
        let app = try Harness(user: "alice", faults: faults)
        app.advance(1)
        #expect(app.state.productsStatus == .empty)
        app.press(.char("?"))
        app.press(.escape)
        app.advance(1)
        #expect(app.state.productsStatus == .loaded)
    }

    @Test("a failed request and an empty list read differently; both offer the product identifiers to buy by")
    func failedAndEmptyReadDifferently() throws {
        var failing = ArmedFaults()
        failing.insert(.productsFail)
        let failed = try Harness(user: "alice", faults: failing)
        failed.advance(1)
        var emptying = ArmedFaults()
        emptying.insert(.productsEmpty)
        let empty = try Harness(user: "alice", faults: emptying)
        empty.advance(1)
        #expect(empty.screen().contains("Network hiccup, please try again later"))
        #expect(!failed.screen().contains("Network hiccup, please try again later"))
        #expect(failed.screen().contains("The App Store did not answer"))
        for app in [failed, empty] {
            #expect(app.screen().contains("Buy by product identifier"))
            #expect(app.screen().contains("com.iapsim.noads"))
        }
    }

    @Test("with no product list, a purchase by identifier goes through the whole flow (seeds 000, 004)")
    func buyByIdentifier() throws {
        var faults = ArmedFaults()
        faults.insert(.productsFail)
        let app = try Harness(user: "alice", faults: faults)
        app.advance(1)
        let index = try #require(shippedCatalog.firstIndex { $0.id == "com.iapsim.noads" })
        for _ in 0..<index { app.press(.down) }
        app.press(.enter)
        app.advance(5)
        #expect(app.screen().contains("Purchase complete"))
        #expect(try app.credits().map(\.productId) == ["com.iapsim.noads"])
        #expect(try app.storeTransactions().allSatisfy { $0.finished })
    }

    @Test("products-fail, -empty and -slow armed once spoil the first product request only: the next launch lists at once",
          arguments: [Fault.productsFail, .productsEmpty, .productsSlow])
    func productFaultsOnce(_ fault: Fault) throws {
        var faults = ArmedFaults()
        faults.insert(fault, FaultArm(value: fault == .productsSlow ? "5" : nil, once: true))
        let app = try Harness(user: "alice", faults: faults)
        app.advance(1)
        #expect(app.state.productsStatus != .loaded)
        #expect(!app.parties.faults.armed.contains(fault))
        try app.relaunch()
        app.advance(1)
        #expect(app.state.productsStatus == .loaded)
    }

    @Test("jailbroken:once refuses the next purchase and no other")
    func jailbrokenOnce() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.session.set(.jailbroken, FaultArm(once: true))
        app.press(.enter)
        app.advance(1)
        #expect(app.state.hud?.kind == .jailbroken)
        app.press(.escape, .enter)
        app.advance(10)
        #expect(app.state.hud?.kind == .success)
        #expect(!app.parties.faults.armed.contains(.jailbroken))
        #expect(try app.credits().count == 1)
    }

    @Test("background:once: the app stays in the background (no automatic retry) until it comes back once (f); then it is spent")
    func backgroundOnce() throws {
        var faults = ArmedFaults()
        faults.insert(.backendDown)
        let app = try Harness(user: "alice", faults: faults)
        app.advance(0.5)
        app.press(.enter)
        app.advance(3)
        app.session.set(.background, FaultArm(once: true))
        app.session.set(.backendDown, nil)
        app.advance(120)
        #expect(try app.credits().isEmpty)  // suspended: the retry waits
        app.press(.char("f"))
        app.advance(5)
        #expect(try app.credits().count == 1)
        #expect(!app.parties.faults.armed.contains(.background))
    }

    @Test("crash-at:once kills the app at its step once; the relaunched app goes through it and credits once")
    func crashAtOnce() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.session.set(.crashAt, FaultArm(value: "verify", once: true))
        app.press(.enter)
        app.advance(5)
        #expect(app.runtime.halted)
        try app.relaunch()
        app.advance(1)
        #expect(app.screen().contains("Unfinished order found"))
        app.press(.enter)
        app.advance(10)
        #expect(!app.runtime.halted)
        #expect(try app.credits().count == 1)
        #expect(try app.storeTransactions().allSatisfy { $0.finished })
        #expect(!app.parties.faults.armed.contains(.crashAt))
    }

    @Test("billing-fails:once fails the next renewal's billing once; the retry and the renewal after it are charged")
    func billingFailsOnce() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.buy("com.iapsim.vip.plus")
        app.session.set(.billingFails, FaultArm(value: "1", once: true))
        for _ in 0..<3 {
            let due = try #require(app.parties.store.nextSubscriptionEvent())
            app.advance(due.timeIntervalSince(app.timers.now) + 1)
            app.advance(5)
        }
        let news = try app.parties.store.database.recentNotifications(limit: 50).map(\.notification.kind)
        #expect(news.filter { $0 == .didFailToRenew }.count == 1)
        #expect(news.filter { $0 == .didRenew }.count == 2)
        #expect(!app.parties.faults.armed.contains(.billingFails))
    }

    @Test("renewal-while-closed:once: the first relaunch opens after the renewal; the next one does not skip again")
    func renewalWhileClosedOnce() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.buy("com.iapsim.vip.plus")
        app.session.set(.renewalWhileClosed, FaultArm(once: true))
        try app.relaunch()
        app.advance(5)
        let renewed = try app.charges().count
        #expect(renewed == 2)
        try app.relaunch()
        app.advance(5)
        #expect(try app.charges().count == renewed)
        #expect(!app.parties.faults.armed.contains(.renewalWhileClosed))
    }
}

/// From a real-kill campaign (seed 6464, round 98): a crash-at step reached while the app was still starting (a renewal
/// that came while it was closed, verified at launch) stopped the app, but nobody was told it had died: the screen
/// stayed at "Loading products…" and every key, q included, did nothing until a kill -9.
@Suite("A crash while the app starts reaches the program around it")
struct CrashAtLaunchTests {
    @Test("crash-at=verify on a renewal verified at launch: the host attached after the launch hears of the crash")
    func crashBeforeTheHostIsAttached() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.buy("com.iapsim.vip.plus")
        var faults = ArmedFaults()
        for text in ["renewal-while-closed", "crash-at=verify"] {
            let (fault, arm) = try ArmedFaults.parse(text)
            faults.insert(fault, arm)
        }
        try app.relaunch(faults: faults)
        #expect(app.runtime.halted)
        let host = HostRequests()
        app.session.host = host
        let heard = host.take()
        guard heard.count == 1, case .crashed? = heard.first else {
            Issue.record("the host heard \(heard), not the crash")
            return
        }
    }
}
