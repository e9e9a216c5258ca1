import Foundation
import IAPApp
import IAPCore
import Testing

/// Issue 28, item 6: support staff who learn from the inspector read the names of the StoreKit the app is written
/// against: `SKPaymentQueue`'s in StoreKit 1, `purchase(options:)`, `Transaction.updates`, `finish()` and
/// `AppStore.sync()` in StoreKit 2.
@Suite("The timeline and the inspector speak the StoreKit the app is written against")
struct StoreKitNamesTests {
    static let coins = "com.iapsim.coins.60"

    /// Alice buys 60 Coins and presses Restore; the timeline in English and 简体中文, and the inspector's screen.
    private func walk(_ storeKit: StoreKitMode) throws -> (en: [String], zh: [String], inspector: String, app: Harness) {
        let app = try Harness(user: "alice", storeKit: storeKit)
        app.advance(0.5)
        app.buy(Self.coins)
        app.press(.escape, .char("R"))
        app.advance(5)
        let en = app.session.timeline.entries(.en).map(\.text), zh = app.session.timeline.entries(.zh).map(\.text)
        return (en, zh, app.screen(), app)
    }

    @Test("StoreKit 2: purchase(options:), Transaction.updates, finish(), AppStore.sync()")
    func storeKitTwo() throws {
        let (en, zh, _, app) = try walk(.two)
        let said = en.joined(separator: "\n")
        let tx = try #require(try app.storeTransactions().first?.0.id)
        #expect(said.contains("purchase(options:) \(Self.coins)"), "\(said)")
        // The purchase the app waits for is the call's result; only what comes back some other way is the listener's.
        #expect(said.contains("purchase(options:) → success (tx \(tx))"), "\(said)")
        #expect(!said.contains("Transaction.updates: tx \(tx) purchased"), "\(said)")
        #expect(said.contains("Transaction.finish(): tx \(tx)"), "\(said)")
        #expect(said.contains("→ AppStore.sync()"), "\(said)")
        #expect(said.contains("Transaction.currentEntitlements after AppStore.sync(): 0 for alice"), "\(said)")
        for word in ["SKPayment", "restore purchases", "store: tx"] { #expect(!said.contains(word), "\(word) in \(said)") }
        #expect(zh.joined().contains("purchase(options:) → success (tx \(tx))"), "\(zh)")

        app.press(.escape, .char("i"))
        let inspector = app.screen()
        #expect(inspector.contains("Unfinished (0)") && !inspector.contains("Store queue"), "\(inspector)")
    }

    @Test("StoreKit 2: a cancelled purchase and an Ask to Buy are purchase(options:)'s results, not transactions from updates")
    func results() throws {
        var faults = ArmedFaults()
        faults.insert(.userCancels, FaultArm(once: true))
        let app = try Harness(user: "alice", faults: faults, storeKit: .two)
        app.advance(0.5)
        app.buy(Self.coins)
        app.runtime.send(.setFault(.askToBuy, FaultArm(value: "decline", once: true)))
        app.press(.escape)
        app.buy(Self.coins)
        let said = app.session.timeline.entries(.en).map(\.text).joined(separator: "\n")
        // A result, not a transaction: no id, nothing to finish.
        for result in ["userCancelled", "pending"] {
            let line = said.split(separator: "\n").first { $0.contains("purchase(options:) → \(result)") }
            #expect(line.map { !$0.contains("tx ") } == true, "\(result): \(said)")
        }
        #expect(!said.contains("Transaction.updates: tx 1000000001 failed"), "\(said)")
        #expect(!said.contains("Transaction.finish(): tx 1000000001"), "\(said)")
        app.runtime.send(.setFault(.purchaseFails, FaultArm(once: true)))
        app.press(.escape)
        app.buy("com.iapsim.coins.300")
        #expect(app.session.timeline.entries(.en).map(\.text).contains { $0.contains("purchase(options:) → StoreKitError.unknown") && !$0.contains("tx ") })
    }

    @Test("StoreKit 2: purchase(options:) returns pending once, however often the app reads the unfinished transactions after")
    func pendingOnce() throws {
        var faults = ArmedFaults()
        faults.insert(.askToBuy, FaultArm(value: "approve", once: true))
        let app = try Harness(user: "alice", faults: faults, storeKit: .two)
        app.advance(0.5)
        app.buy(Self.coins)
        app.advance(30)
        let said = app.session.timeline.entries(.en).map(\.text)
        #expect(said.filter { $0.contains("→ pending") }.count == 1, "\(said.joined(separator: "\n"))")
        // Approved later, it comes back through the listener, no call waiting for it any more.
        #expect(said.contains { $0.contains("Transaction.updates: tx ") && $0.contains(" purchased") }, "\(said.joined(separator: "\n"))")
        #expect(app.session.timeline.entries(.zh).map(\.text).contains { $0.contains("Transaction.updates:tx ") && $0.contains(" 已购买") })
    }

    @Test("StoreKit 1 keeps SKPaymentQueue's words: pay, the queue's purchased, finish, restore purchases")
    func storeKitOne() throws {
        let (en, _, _, app) = try walk(.one)
        let said = en.joined(separator: "\n")
        let tx = try #require(try app.storeTransactions().first?.0.id)
        #expect(said.contains("pay \(Self.coins)"), "\(said)")
        #expect(said.contains("store: tx \(tx) purchased"), "\(said)")
        #expect(said.contains("store: tx \(tx) finished"), "\(said)")
        #expect(said.contains("→ restore purchases"), "\(said)")
        for word in ["Transaction.", "AppStore.sync", "purchase(options:)"] { #expect(!said.contains(word), "\(word) in \(said)") }
        app.press(.escape, .char("i"))
        #expect(app.screen().contains("Store queue (0)"), "\(app.screen())")
    }
}

/// From a newcomer's walk: in StoreKit 2 the fault panel still said finishTransaction and applicationUsername.
@Suite("The fault panel speaks the StoreKit the app is written against")
struct FaultPanelStoreKitTests {
    @Test("StoreKit 2: Transaction.finish(), appAccountToken, AppStore.sync(); StoreKit 1 keeps finishTransaction", arguments: [StoreKitMode.one, .two])
    func words(storeKit: StoreKitMode) throws {
        let app = try Harness(user: "alice", storeKit: storeKit)
        app.advance(0.5)
        app.press(.char("F"))
        let panel = app.session.screen(width: 200, height: 60).text
        let two = ["Transaction.finish() does not take", "without their appAccountToken", "AppStore.sync() throws"]
        for words in two { #expect(panel.contains(words) == (storeKit == .two), "\(words): \(panel)") }
        #expect(panel.contains("finishTransaction cannot find") == (storeKit == .one), "\(panel)")
    }
}
