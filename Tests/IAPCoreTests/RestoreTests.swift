import Foundation
import IAPCore
import Testing

@Suite("Restore Purchases in the core (S8): the whole state and the exact effects")
struct RestoreTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    let noads = Product(id: "noads", kind: .nonConsumable, title: Localized("Remove Ads"), summary: Localized(""), price: Localized("¥18"), coins: 0)

    /// Logged in as `a` with the products on screen and nothing pending.
    private func shopping(_ change: (inout AppState) -> Void = { _ in }) -> TestStore {
        var state = AppState(now: t0)
        state.products = [noads]
        state.productsStatus = .loaded
        state.session = Session(user: "a")
        change(&state)
        return TestStore(state, now: t0)
    }

    private func restored(_ id: String, original: String, orderId: String? = "O1") -> StoreTransaction {
        StoreTransaction(id: id, productId: "noads", state: .restored, applicationUsername: orderId, date: t0, originalTransactionId: original)
    }

    private func order(_ id: String, orderId: String? = "O1", status: PendingOrder.Status = .pending) -> PendingOrder {
        // Restored by the user who asked: theirs to claim under the backend's restore policy.
        PendingOrder(transactionId: id, user: "a", productId: "noads", orderId: orderId, purchasedAt: t0, price: "¥18", receiptHash: nil, status: status,
                     claimsOwnership: true)
    }

    @Test("R: Restoring… until each restored transaction is saved, verified and finished, then Purchases restored (N)")
    func restoreFromKeyToOutcome() {
        // b is paying for the same product on this device.
        var store = shopping { $0.device.paymentIntents = [PaymentIntent(id: 3, user: "b", productId: "noads", orderId: nil, createdAt: self.t0)] }
        store.send(.key(.char("R")), effects: [.restorePurchases(account: "a")]) {
            $0.device.restore = Restore(user: "a")
            $0.hud = HUD(.restoring)
        }
        // The store tells of what it restored before it answers: the user who asked owns it (without an order id,
        // b's open intent would otherwise make it b's).
        store.send(.storeUpdated([restored("t9", original: "t1", orderId: nil)]), effects: [.persist(order("t9", orderId: nil), closingIntent: nil)]) {
            $0.device.storeQueue = ["t9": restored("t9", original: "t1", orderId: nil)]
            $0.device.claimed = ["t9"]
        }
        store.send(.restoreAnswered(user: "a", .success(["t9"]))) {
            $0.device.restore?.restored = ["t9"]
        }
        store.send(.persisted(order("t9", orderId: nil), ok: true), effects: [.verify(order("t9", orderId: nil))]) {
            $0.session?.orders = ["t9": order("t9", orderId: nil)]
            $0.session?.pendingTotal = 1
            $0.device.verifying = "t9"
            $0.session?.queue.triesSinceTrigger = ["t9": 1]
        }
        // The backend keys a restore on its original: valid, nothing new credited. The HUD still waits for the finish.
        store.send(.verified(order("t9", orderId: nil), .valid),
                   effects: [.persist(order("t9", orderId: nil, status: .verified), closingIntent: nil), .finish(transactionId: "t9", user: "a")]) {
            $0.device.verifying = nil
            $0.session?.orders = ["t9": order("t9", orderId: nil, status: .verified)]
            $0.session?.pendingTotal = 0
        }
        store.send(.finished(transactionId: "t9", user: "a", found: true), effects: [.remove(transactionId: "t9", user: "a"), .refreshAccount("a")]) {
            $0.device.storeQueue = [:]
            $0.session?.orders = [:]
            $0.session?.queue.triesSinceTrigger = [:]
            $0.device.restore = nil
            $0.hud = HUD(.restored, count: 1)
        }
        store.send(.key(.escape)) { $0.hud = nil }
    }

    @Test("a restore asked under one Apple ID claims nothing that another Apple ID's queue brings before the store answers (seed 207102)")
    func restoreAcrossAnAppleIdSwitch() throws {
        var state = AppState(now: t0)
        state.products = [noads]
        state.productsStatus = .loaded
        state.session = Session(user: "b")
        state.device.appleId = "sandbox-2"
        #expect(state.reduce(.key(.char("R")), now: t0) == [.restorePurchases(account: "b")])
        _ = state.reduce(.appleIdSignedIn("sandbox-1"), now: t0)
        // sandbox-1's queue still holds a transaction restored for a earlier, on a restore whose answer never reached
        // the app: b asked sandbox-2's store for nothing of it.
        let effects = state.reduce(.storeUpdated([restored("t3", original: "t1")]), now: t0)
        guard case let .persist(order, _)? = effects.first else { Issue.record("not saved: \(effects)"); return }
        #expect(order.user == "b" && order.claimsOwnership == false)
        // What the store answers b's restore with is b's to claim, whichever Apple ID it came from.
        _ = state.reduce(.restoreAnswered(user: "b", .success(["t4"])), now: t0)
        let answered = state.reduce(.storeUpdated([restored("t4", original: "t1")]), now: t0)
        guard case let .persist(claimed, _)? = answered.first else { Issue.record("not saved: \(answered)"); return }
        #expect(claimed.claimsOwnership)
    }

    @Test("the answer may come after some restored transactions are already finished: they count")
    func answerAfterFinish() {
        var store = shopping()
        store.send(.intent(.restorePurchases), effects: [.restorePurchases(account: "a")]) {
            $0.device.restore = Restore(user: "a")
            $0.hud = HUD(.restoring)
        }
        store.send(.finished(transactionId: "t9", user: nil, found: true)) { $0.device.restore?.finished = ["t9"] }
        store.send(.finished(transactionId: "t8", user: nil, found: true)) { $0.device.restore?.finished = ["t9", "t8"] }
        store.send(.restoreAnswered(user: "a", .success(["t8", "t9"]))) {
            $0.device.restore = nil
            $0.hud = HUD(.restored, count: 2)
        }
    }

    @Test("nothing owned: Nothing to restore; a failed restore: Restore failed; both dismissed with Esc, nothing else changed")
    func nothingAndFailure() {
        var store = shopping()
        store.send(.key(.char("R")), effects: [.restorePurchases(account: "a")]) {
            $0.device.restore = Restore(user: "a")
            $0.hud = HUD(.restoring)
        }
        store.send(.restoreAnswered(user: "a", .success([]))) {
            $0.device.restore = nil
            $0.hud = HUD(.nothingToRestore)
        }
        store.send(.key(.char("R")))  // an outcome on screen takes the keys: Esc first
        store.send(.key(.escape)) { $0.hud = nil }
        store.send(.key(.char("R")), effects: [.restorePurchases(account: "a")]) {
            $0.device.restore = Restore(user: "a")
            $0.hud = HUD(.restoring)
        }
        store.send(.restoreAnswered(user: "a", .failure(.failed))) {
            $0.device.restore = nil
            $0.hud = HUD(.restoreFailed)
        }
        store.send(.key(.escape)) { $0.hud = nil }
    }

    @Test("Esc leaves the restore going in the background; R shows it again instead of asking twice; quitting asks first")
    func background() {
        var store = shopping()
        store.send(.key(.char("R")), effects: [.restorePurchases(account: "a")]) {
            $0.device.restore = Restore(user: "a")
            $0.hud = HUD(.restoring)
        }
        store.send(.key(.char("q"))) { $0.modal = .quitConfirm }
        store.send(.key(.escape)) { $0.modal = nil }
        store.send(.key(.escape)) { $0.hud = nil }
        store.send(.key(.char("R"))) { $0.hud = HUD(.restoring) }
        store.send(.key(.escape)) { $0.hud = nil }
        // Answered and finished in the background: no outcome pops up over what the user does now.
        store.send(.restoreAnswered(user: "a", .success(["t9"]))) { $0.device.restore?.restored = ["t9"] }
        store.send(.finished(transactionId: "t9", user: nil, found: true)) { $0.device.restore = nil }
    }

    @Test("logged out meanwhile: what was restored stays the asker's, and no outcome is shown to the next user")
    func loggedOutMeanwhile() {
        var store = shopping()
        store.send(.key(.char("R")), effects: [.restorePurchases(account: "a")]) {
            $0.device.restore = Restore(user: "a")
            $0.hud = HUD(.restoring)
        }
        store.send(.switchUser("b"), effects: [.setLastUser(nil), .setLastUser("b"), .loadUser("b"), .refreshAccount("b"), .readStoreQueue(after: 0)]) {
            $0.session = Session(user: "b")
            $0.hud = nil
        }
        store.send(.storeUpdated([restored("t9", original: "t1")]), effects: [.persist(order("t9"), closingIntent: nil)]) {
            $0.device.storeQueue = ["t9": restored("t9", original: "t1")]
            $0.device.claimed = ["t9"]
        }
        store.send(.key(.char("R")))  // b cannot start a restore while a's is unanswered: whose would the news be?
        store.send(.restoreAnswered(user: "a", .success(["t9"]))) { $0.device.restore = nil }
        store.send(.key(.char("R")), effects: [.restorePurchases(account: "b")]) {
            $0.device.restore = Restore(user: "b")
            $0.hud = HUD(.restoring)
        }
    }

    @Test("R works on the product list only, logged in: on the login screen it is a letter of the name")
    func onlyLoggedIn() {
        var store = TestStore(AppState(now: t0), now: t0)
        store.send(.key(.char("R"))) { $0.loginText = "R" }
        var jailbroken = shopping { $0.faults = [.jailbroken] }
        jailbroken.send(.key(.char("R"))) { $0.hud = HUD(.jailbroken) }
    }

    @Test("a restored transaction that is not the restore's, after the store answered, is no intent's payment: the logged-in user carries it")
    func onlyItsOwnTransactions() {
        var state = shopping().state
        state.device.restore = Restore(user: "a", restored: ["t9"])
        state.device.paymentIntents = [PaymentIntent(id: 3, user: "b", productId: "noads", orderId: nil, createdAt: t0)]
        #expect(state.device.attribute(restored("t9", original: "t1"), loggedIn: "a") == .buyer(user: "a", orderId: "O1", intent: nil))
        let other = StoreTransaction(id: "t7", productId: "noads", state: .restored, applicationUsername: nil, date: t0, originalTransactionId: "t1")
        // The backend credits it to whom the original was credited, or waits for the original: b's intent stays b's.
        #expect(state.device.attribute(other, loggedIn: "a") == .buyer(user: "a", orderId: nil, intent: nil))
    }
}
