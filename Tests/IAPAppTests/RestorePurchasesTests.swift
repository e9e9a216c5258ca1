import Foundation
import IAPApp
import IAPCore
import MockStore
import Testing

/// Restore Purchases (S8) on the real parties: a person's keys, kills and devices, and what each party holds after.
@Suite("Restore Purchases: on another device, after a reinstall, through kills")
struct RestorePurchasesTests {
    private func select(_ app: Harness, _ productId: String) {
        let index = shippedCatalog.firstIndex { $0.id == productId }!
        for _ in 0..<shippedCatalog.count { app.press(.up) }
        for _ in 0..<index { app.press(.down) }
    }

    /// alice owns Remove Ads (bought, credited, finished on the phone).
    private func aliceOwnsRemoveAds(faults: ArmedFaults = []) throws -> Harness {
        let app = try Harness(user: "alice", faults: faults)
        app.advance(0.5)
        select(app, "com.iapsim.noads")
        app.press(.enter)
        app.advance(5)
        #expect(app.screen().contains("Purchase complete"))
        app.press(.escape)
        return app
    }

    private func restoredRecords(_ app: Harness) throws -> [StoreRecord] {
        try app.storeRecords().filter { $0.transaction.state == .restored }
    }

    @Test("on a new device: Restoring…, then Purchases restored (1); Remove Ads owned there, charged once, credited once")
    func onANewDevice() throws {
        let app = try aliceOwnsRemoveAds()
        try app.session.move(to: "tablet", user: "alice")
        app.advance(0.5)
        app.press(.char("R"))
        #expect(app.screen().contains("Restoring purchases…"))
        app.advance(0.5)
        #expect(app.screen().contains("Restoring purchases…"))
        app.advance(5)
        #expect(app.screen().contains("Purchases restored (1)"), "\(app.screen())")
        app.press(.escape)
        #expect(app.screen().contains("Remove Ads") && app.screen().contains("Owned"))
        let restored = try restoredRecords(app)
        #expect(restored.count == 1 && restored[0].finished && restored[0].account == "alice")
        #expect(try StoreDatabase(path: app.directory.store).device(of: restored[0].transaction.id) == "tablet")
        let paid = try app.storeRecords().filter { $0.transaction.state == .purchased }
        #expect(paid.count == 1 && restored[0].transaction.originalTransactionId == paid[0].transaction.id)
        #expect(try app.credits().map(\.transactionId) == [paid[0].transaction.id])
        #expect(try app.clientOrders().isEmpty)
    }

    @Test("a subscription and a non-consumable on a new device: Purchases restored (2), the subscription's charge credited once, auto-renew untouched")
    func subscriptionOnANewDevice() throws {
        let app = try aliceOwnsRemoveAds()
        select(app, "com.iapsim.vip.yearly")
        app.press(.enter)
        app.advance(5)
        app.press(.escape)
        let before = try app.credits().count
        #expect(before == 2)
        try app.session.move(to: "tablet", user: "alice")
        app.advance(0.5)
        app.press(.char("R"))
        app.advance(6)
        #expect(app.screen().contains("Purchases restored (2)"), "\(app.screen())")
        let restored = try restoredRecords(app)
        #expect(Set(restored.map(\.transaction.productId)) == ["com.iapsim.noads", "com.iapsim.vip.yearly"])
        #expect(restored.allSatisfy { $0.finished })
        #expect(try app.credits().count == before)
        #expect(app.parties.store.subscriptions(account: "alice").first?.state == .active)
    }

    @Test("after a reinstall the purchase comes back; restoring twice restores again, crediting nothing new")
    func afterReinstallAndTwice() throws {
        let app = try aliceOwnsRemoveAds()
        try app.session.reinstall(user: "alice")
        app.advance(0.5)
        for round in 1...2 {
            app.press(.char("R"))
            app.advance(6)
            #expect(app.screen().contains("Purchases restored (1)"), "round \(round)")
            app.press(.escape)
        }
        #expect(try restoredRecords(app).count == 2)
        #expect(try app.credits().count == 1)
        #expect(try app.storeRecords().allSatisfy(\.finished))
    }

    @Test("an account that owns nothing (coins are consumed): Nothing to restore; restore-fails: Restore failed")
    func nothingAndFailure() throws {
        let app = try Harness(user: "bob")
        app.advance(0.5)
        app.press(.enter)  // 60 Coins
        app.advance(5)
        app.press(.escape, .char("R"))
        app.advance(2)
        #expect(app.screen().contains("Nothing to restore"))
        app.press(.escape)
        app.session.set(.restoreFails, FaultArm(once: true))
        app.press(.char("R"))
        app.advance(2)
        #expect(app.screen().contains("Restore failed"))
        #expect(try restoredRecords(app).isEmpty)
    }

    @Test("with the backend down the restore waits, in the background after Esc, and completes once it is back")
    func backendDown() throws {
        let app = try aliceOwnsRemoveAds()
        try app.session.move(to: "tablet", user: "alice")
        app.session.set(.backendDown, FaultArm())
        app.advance(0.5)
        app.press(.char("R"))
        app.advance(10)
        #expect(app.screen().contains("Restoring purchases…"))
        #expect(app.state.pendingCount == 1)
        app.press(.escape)
        #expect(app.state.hud == nil)
        app.press(.char("b"))  // the backend is back: a trigger
        app.advance(5)
        #expect(app.state.pendingCount == 0)
        #expect(try app.storeRecords().allSatisfy(\.finished))
        #expect(try app.credits().count == 1)
    }

    @Test("a kill after any number of the restore's steps loses nothing: the next launch finishes what was restored, crediting nothing new",
          arguments: 0..<10)
    func killedMidRestore(effects: Int) throws {
        let app = try aliceOwnsRemoveAds()
        try app.session.move(to: "tablet", user: "alice")
        app.advance(0.5)
        app.press(.char("R"))
        app.runtime.halt(afterEffects: effects)
        app.advance(6)
        try app.relaunch(user: "alice")
        for _ in 0..<10 {
            app.advance(2)
            if case .unfinished = app.state.modal { app.press(.enter) }
        }
        for record in try app.storeRecords() {
            #expect(record.finished, "\(record.transaction.id) \(record.transaction.state) left unfinished after a kill after \(effects) effects")
        }
        #expect(try app.credits().count == 1)
        #expect(try app.clientOrders().isEmpty)
        #expect(try restoredRecords(app).count <= 1, "a restore killed and not asked again restores once, if at all")
    }

    @Test("a purchase not yet credited on the phone is not restored to the tablet, where whoever logs in next would carry it (I3)")
    func notYetCreditedElsewhere() throws {
        // alice pays for Remove Ads on the phone without an order (backend down, applicationUsername empty): pending there.
        let app = try Harness(user: "alice", faults: [.backendDown, .emptyApplicationUsername])
        app.advance(0.5)
        select(app, "com.iapsim.noads")
        app.press(.enter)
        app.advance(3)
        #expect(app.state.pendingCount == 1)
        try app.session.move(to: "tablet", user: "alice", faults: [])
        app.advance(0.5)
        app.press(.char("R"))
        app.runtime.haltAtNextStoreNews()  // had anything come back, the app would die before saving it for alice
        app.advance(3)
        try app.relaunch(user: "bob")  // bob on the tablet: nothing of alice's may be credited to him
        app.advance(10)
        try app.session.move(to: StoreDatabase.firstDevice, user: "alice")
        app.advance(1)
        if case .unfinished = app.state.modal { app.press(.enter) }
        app.advance(5)
        #expect(try app.credits().map(\.user) == ["alice"])
        try app.session.move(to: "tablet", user: "alice")
        app.advance(0.5)
        app.press(.char("R"))
        app.advance(5)
        #expect(app.screen().contains("Purchases restored (1)"), "once credited, it comes back")
        #expect(try app.credits().map(\.user) == ["alice"])
    }

    @Test("killed the moment Apple has restored (before the app hears): re-delivered at the next launch, verified and finished")
    func killedAtTheStoresNews() throws {
        let app = try aliceOwnsRemoveAds()
        try app.session.move(to: "tablet", user: "alice")
        app.advance(0.5)
        app.press(.char("R"))
        app.runtime.haltAtNextStoreNews()
        app.advance(3)
        #expect(app.runtime.halted)
        let restored = try restoredRecords(app)
        #expect(restored.count == 1 && !restored[0].finished)
        try app.relaunch()  // the tablet remembers alice
        app.advance(10)
        #expect(try restoredRecords(app).allSatisfy(\.finished))
        #expect(try app.credits().count == 1)
        #expect(try app.clientOrders().isEmpty)
    }
}
