import Foundation
import IAPCore
import Testing

@Suite("The core, action by action, the whole state and the exact effects")
struct CoreTestStoreTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    let product = Product(id: "coins", kind: .consumable, title: Localized("60 Coins"), summary: Localized(""),
                          price: Localized("¥6"), coins: 60)

    @Test("log in, buy, pay, persist, verify, finish: each step changes exactly what it should")
    func purchaseFromKeyToFinish() {
        var store = TestStore(AppState(now: t0), now: t0)
        store.send(.launched(canMakePayments: true, user: nil), effects: [.requestProducts])
        store.send(.productsLoaded(.success([product]))) {
            $0.products = [product]
            $0.productsStatus = .loaded
        }
        store.send(.intent(.logIn("a")), effects: [.setLastUser("a"), .loadUser("a"), .refreshAccount("a"), .readStoreQueue(after: 0)]) {
            $0.user = "a"
        }
        store.send(.userLoaded("a", UserSnapshot()))
        store.send(.intent(.buy(productId: "coins")), effects: [.createOrder(user: "a", productId: "coins")]) {
            $0.purchase = AppState.Purchase(user: "a", productId: "coins")
            $0.hud = HUD(.purchasing, productId: "coins")
        }
        store.send(.orderCreated(user: "a", productId: "coins", .success("O1")),
                   effects: [.recordIntent(user: "a", productId: "coins", orderId: "O1", appAccountToken: nil, at: t0)])
        let intent = PaymentIntent(id: 7, user: "a", productId: "coins", orderId: "O1", createdAt: t0)
        store.send(.intentRecorded(user: "a", productId: "coins", intent), effects: [
            .addPayment(Payment(productId: "coins", applicationUsername: "O1", pressedBy: "a", id: 7)),
            .readStoreQueue(after: AppState.lookAgainAfterPayment),
        ]) {
            $0.device.paymentIntents = [intent]
            $0.purchase?.paymentId = 7
        }
        let paid = StoreTransaction(id: "t1", productId: "coins", state: .purchased, applicationUsername: "O1", date: t0, paymentId: 7)
        let order = PendingOrder(transactionId: "t1", user: "a", productId: "coins", orderId: "O1", purchasedAt: t0, price: "¥6", receiptHash: nil,
                                 claimsOwnership: true)
        // C2: written before anything talks to the backend; the intent closes in the same write.
        store.send(.storeUpdated([paid]), effects: [.persist(order, closingIntent: 7)]) {
            $0.device.storeQueue = ["t1": paid]
            $0.purchase?.transactionId = "t1"
            $0.device.paymentIntents = []
            $0.device.claimed = ["t1"]
        }
        store.send(.persisted(order, ok: true), effects: [.verify(order)]) {
            $0.session?.orders = ["t1": order]
            $0.session?.pendingTotal = 1
            $0.hud = HUD(.confirming, productId: "coins", transactionId: "t1")
            $0.device.verifying = "t1"
            $0.session?.queue.triesSinceTrigger = ["t1": 1]
        }
        var verified = order
        verified.status = .verified
        // I4: finished only after the verdict.
        store.send(.verified(order, .valid), effects: [.persist(verified, closingIntent: nil), .finish(transactionId: "t1", user: "a")]) {
            $0.device.verifying = nil
            $0.hud?.kind = .success
            $0.purchase = nil
            $0.session?.orders = ["t1": verified]
            $0.session?.pendingTotal = 0
        }
        store.send(.finished(transactionId: "t1", user: "a", found: true),
                   effects: [.remove(transactionId: "t1", user: "a"), .refreshAccount("a")]) {
            $0.device.storeQueue = [:]
            $0.session?.orders = [:]
            $0.session?.queue.triesSinceTrigger = [:]
        }
    }

    @Test("keys are the shell's: typing a name and Enter, then Enter on a product, do what the intents do")
    func keysBecomeIntents() {
        var byKeys = AppState(now: t0), byIntents = AppState(now: t0)
        _ = byKeys.reduce(.productsLoaded(.success([product])), now: t0)
        _ = byIntents.reduce(.productsLoaded(.success([product])), now: t0)
        _ = byKeys.reduce(.key(.char("a")), now: t0)
        let keyEffects = byKeys.reduce(.key(.enter), now: t0) + byKeys.reduce(.key(.enter), now: t0)
        let intentEffects = byIntents.reduce(.intent(.logIn("a")), now: t0) + byIntents.reduce(.intent(.buy(productId: "coins")), now: t0)
        #expect(keyEffects == intentEffects)
        #expect(byKeys == byIntents)
    }

    @Test("logging out drops the user's orders, prompts and retries: the next user cannot reach them")
    func logOutDropsTheSession() {
        var store = TestStore(AppState(now: t0), now: t0)
        let order = PendingOrder(transactionId: "t1", user: "a", productId: "coins", orderId: nil, purchasedAt: t0, price: "¥6", receiptHash: nil)
        store.send(.launched(canMakePayments: true, user: "a"),
                   effects: [.requestProducts, .setLastUser("a"), .loadUser("a"), .refreshAccount("a")]) { $0.user = "a" }
        store.send(.userLoaded("a", UserSnapshot(pending: [order]))) {
            $0.session?.orders = ["t1": order]
            $0.session?.pendingTotal = 1
            $0.session?.pageEnd = order
            $0.session?.prompts = ["t1"]
        }
        // The prompt names what was bought: it waits for the product list.
        store.send(.productsLoaded(.success([product]))) {
            $0.products = [product]
            $0.productsStatus = .loaded
            $0.modal = .unfinished(transactionId: "t1", choice: 0)
        }
        store.send(.switchUser("b"), effects: [.setLastUser(nil), .setLastUser("b"), .loadUser("b"), .refreshAccount("b"), .readStoreQueue(after: 0)]) {
            // A new session: nothing of a's is left to reset.
            $0.session = Session(user: "b")
            $0.modal = nil
        }
    }

    @Test("a page that brings nothing new (orders tried since moved past where it starts) reads on: every order found at login is still asked about (C8)")
    func pageOfKnownOrdersReadsOn() {
        func order(_ id: String) -> PendingOrder {
            PendingOrder(transactionId: id, user: "a", productId: "coins", orderId: nil, purchasedAt: t0, price: "¥6", receiptHash: nil, attempts: 1)
        }
        var state = AppState(now: t0)
        var session = Session(user: "a")
        session.orders = ["o1": order("o1"), "o2": order("o2")]
        session.pendingTotal = 5
        session.pageRequested = true
        state.session = session
        let effects = state.reduce(.pendingPageLoaded(user: "a", PendingPage(orders: [order("o1"), order("o2")], total: 5)), now: t0)
        #expect(effects.contains(.loadPendingPage(user: "a", after: order("o2"))), "\(effects)")
    }
}
