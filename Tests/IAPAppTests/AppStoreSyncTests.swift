import Foundation
import IAPApp
import IAPCore
import MockBackend
import Testing

/// Issue 28: in StoreKit 2 Restore is `AppStore.sync()`, then `Transaction.currentEntitlements`: the transactions
/// themselves, sent to the app's server for the user who restored. No `restored` transaction is made, none is finished.
@Suite("StoreKit 2: Restore is AppStore.sync() and Transaction.currentEntitlements")
struct AppStoreSyncTests {
    static let noAds = RestorePolicyTests.noAds, monthly = "com.iapsim.vip.monthly"

    private func owns(_ app: Harness, _ user: String, _ productId: String = Self.noAds) throws -> Bool {
        try app.parties.backend.accountNow(user: user).owned.contains(productId)
    }

    private func told(_ app: Harness) -> String {
        app.session.timeline.entries(.en).map(\.text).joined(separator: "\n")
    }

    private func restore(_ app: Harness) {
        app.runtime.send(.intent(.restorePurchases))
        app.advance(5)
    }

    @Test("bob restores what alice bought with the same Apple ID: her transaction itself comes back, nothing is written or finished, and he holds it")
    func entitlementItself() throws {
        let app = try Harness.aliceBoughtThenBob(Self.noAds, storeKit: .two)
        let before = try app.storeTransactions()
        let bought = try #require(before.first?.0.id)
        let finishes = told(app).components(separatedBy: "Transaction.finish()").count
        restore(app)
        #expect(app.screen().contains("Purchases restored (1)"), "\(app.screen())")
        #expect(try app.storeTransactions().map(\.0.id) == before.map(\.0.id))
        #expect(told(app).contains("Transaction.currentEntitlements after AppStore.sync(): 1 for bob"), "\(told(app))")
        #expect(told(app).contains("send tx \(bought) to the server, restored by bob"), "\(told(app))")
        // Credited when alice bought it: the restore's answer says who holds it, not "credited" again.
        #expect(told(app).contains("restore for bob: backend: tx \(bought) valid, held by bob"), "\(told(app))")
        #expect(told(app).components(separatedBy: "Transaction.finish()").count == finishes, "\(told(app))")
        #expect(try owns(app, "bob") && !owns(app, "alice"))
        #expect(try app.credits().map(\.user) == ["alice"])
        #expect(try app.clientOrders().isEmpty)
    }

    @Test("keep: bob is told it belongs to another account, and alice keeps it")
    func keep() throws {
        let app = try Harness.aliceBoughtThenBob(Self.noAds, policy: .keep, storeKit: .two)
        restore(app)
        #expect(app.screen().contains("This purchase belongs to another account"), "\(app.screen())")
        #expect(try owns(app, "alice") && !owns(app, "bob"))
    }

    @Test("a subscription that has expired is no entitlement: nothing to restore")
    func expiredSubscription() throws {
        let app = try Harness(user: "alice", storeKit: .two)
        app.advance(0.5)
        app.buy(Self.monthly)
        let original = try #require(try app.storeTransactions().first?.0.id)
        app.parties.store.setAutoRenew(false, originalTransactionId: original)
        app.advance(40 * 24 * 3600)
        app.press(.escape)
        restore(app)
        #expect(app.screen().contains("Nothing to restore"), "\(app.screen())")
    }

    @Test("the server unreachable: the restore says it failed; pressed again, it sends them all again")
    func serverDown() throws {
        let app = try Harness.aliceBoughtThenBob(Self.noAds, storeKit: .two)
        app.runtime.send(.setFault(.backendDown, FaultArm()))
        restore(app)
        #expect(app.screen().contains("Restore failed"), "\(app.screen())")
        #expect(try !owns(app, "bob"))
        app.runtime.send(.setFault(.backendDown, nil))
        app.press(.escape)
        restore(app)
        #expect(app.screen().contains("Purchases restored (1)"), "\(app.screen())")
        #expect(try owns(app, "bob"))
    }

    @Test("StoreKit 1 keeps restoreCompletedTransactions: a new restored transaction, finished, told as one purchase restored")
    func storeKitOne() throws {
        let app = try Harness.aliceBoughtThenBob(Self.noAds)
        restore(app)
        #expect(try app.storeTransactions().map(\.0.state) == [.purchased, .restored])
        #expect(told(app).contains("store: 1 purchase restored to bob"), "\(told(app))")
        #expect(try owns(app, "bob"))
    }

    @Test("the inspector shows Transaction.currentEntitlements: what the Apple ID owns, also to bob, who holds nothing on the server")
    func inspectorShowsEntitlements() throws {
        let app = try Harness.aliceBoughtThenBob(Self.noAds, storeKit: .two)
        let bought = try #require(try app.storeTransactions().first?.0.id)
        app.press(.char("i"))
        let screen = app.screen()
        #expect(screen.contains("currentEntitlements (1)") && screen.contains("\(bought) Remove Ads"), "\(screen)")
        #expect(try !owns(app, "bob"))
        // StoreKit 1 has no such reading.
        let one = try Harness.aliceBoughtThenBob(Self.noAds)
        one.press(.char("i"))
        #expect(!one.screen(width: 120, height: 30).contains("currentEntitlements"))
    }
}

