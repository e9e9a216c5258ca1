import Foundation
import IAPApp
import IAPCore
import Testing

/// Issue 28, item 1: in StoreKit 2 a purchase that is cancelled or fails is `purchase(options:)`'s result (or the error
/// it throws), not a transaction: nothing is left of it in `Transaction.unfinished` for the app to finish.
@Suite("StoreKit 2: a cancelled or failed purchase is the call's result, and leaves no transaction")
struct StoreKit2ResultTests {
    static let coins = "com.iapsim.coins.60"

    private func told(_ app: Harness) -> String {
        app.session.timeline.entries(.en).map(\.text).joined(separator: "\n")
    }

    /// Alice presses Buy on 60 Coins with `fault` armed, and `wait`s.
    private func buying(_ fault: Fault, storeKit: StoreKitMode = .two, wait: Double) throws -> Harness {
        let app = try Harness(user: "alice", faults: [fault], storeKit: storeKit)
        app.advance(0.5)
        app.select(Self.coins)
        app.press(.enter)
        app.advance(wait)
        return app
    }

    @Test("cancelled on the sheet: the HUD says so, the intent closes, and the app finishes nothing")
    func cancelled() throws {
        let app = try buying(.userCancels, wait: 5)
        #expect(app.screen().contains("Purchase cancelled"), "\(app.screen())")
        #expect(!told(app).contains("Transaction.finish()"), "\(told(app))")
        #expect(try app.unfinishedInStore(on: app.parties.store.database.device) == 0)
        #expect(try app.parties.vault.openIntents().isEmpty)
    }

    @Test("failed while the app was killed: nothing comes back at the next launch nor the one after, whose login closes the intent")
    func failedWhileKilled() throws {
        let app = try buying(.purchaseFails, wait: 0.8)  // paid for, not decided yet
        #expect(try app.parties.vault.openIntents().count == 1)
        try app.relaunch(user: "alice")
        app.advance(5)
        let failed = try #require(try app.storeTransactions().first)
        #expect(failed.0.state == .failed && failed.finished)
        #expect(!told(app).contains("tx \(failed.0.id)"), "\(told(app))")
        #expect(app.state.modal == nil && app.state.pendingCount == 0)
        // The app never hears of it; its note of who was paying is found stale at the next login, as one whose payment
        // never reached the store.
        try app.relaunch(user: "alice")
        app.advance(2)
        #expect(!told(app).contains("tx \(failed.0.id)"), "\(told(app))")
        #expect(try app.parties.vault.openIntents().isEmpty)
    }

    @Test("Ask to Buy declined: purchase(options:) returned .pending, and the parent's no reaches the app as nothing at all")
    func askToBuyDeclined() throws {
        var once = ArmedFaults()
        once.insert(.askToBuy, FaultArm(value: "decline", once: true))
        let app = try Harness(user: "alice", faults: once, storeKit: .two)
        app.advance(0.5)
        app.select(Self.coins)
        app.press(.enter)
        app.advance(2)
        #expect(app.screen().contains("Waiting for approval"), "\(app.screen())")
        app.advance(30)
        let declined = try #require(try app.storeTransactions().first)
        #expect(declined.0.state == .failed && declined.finished)
        #expect(!told(app).contains("tx \(declined.0.id)"), "\(told(app))")
        #expect(!told(app).contains("Transaction.finish()"), "\(told(app))")
        // Nothing says the intent's payment will not come: it waits, and the next login finds it stale.
        #expect(try app.parties.vault.openIntents().count == 1)
        try app.relaunch(user: "alice")
        app.advance(2)
        #expect(try app.parties.vault.openIntents().isEmpty)
        #expect(try app.credits().isEmpty)
    }

    @Test("StoreKit 1 keeps its failed transaction for the app to finish, as SKPaymentQueue does")
    func storeKitOne() throws {
        let app = try buying(.userCancels, storeKit: .one, wait: 5)
        #expect(told(app).contains("store: tx 1000000001 finished"), "\(told(app))")
    }
}
