import Foundation
import IAPCore
import Testing

/// Issue 28, item 2: in StoreKit 2 the core asks the backend for the user's appAccountToken once a session, before
/// the order, and pays with it; the rest of the purchase is StoreKit 1's, step for step.
@Suite("StoreKit 2 in the core: the token before the order, the payment carries it")
struct StoreKitTwoTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    let product = Product(id: "coins", kind: .consumable, title: Localized("60 Coins"), summary: Localized(""),
                          price: Localized("¥6"), coins: 60)
    let token = UUID(uuidString: "00000000-0000-4000-8000-000000000001")!

    /// Logged in as a, the product list loaded, in StoreKit 2.
    private func loggedIn() -> TestStore {
        var store = TestStore(AppState(storeKit: .two, now: t0), now: t0)
        store.send(.launched(canMakePayments: true, user: nil), effects: [.requestProducts])
        store.send(.productsLoaded(.success([product]))) {
            $0.products = [product]
            $0.productsStatus = .loaded
        }
        store.send(.intent(.logIn("a")), effects: [.setLastUser("a"), .loadUser("a"), .refreshAccount("a"), .fetchAppAccountToken(user: "a"),
                                                    .readStoreQueue(after: 0)]) {
            $0.user = "a"
        }
        store.send(.userLoaded("a", UserSnapshot()))
        return store
    }

    @Test("login asks for the token; a purchase made before it came asks again, then for the order; the payment carries the token; the next purchase asks no more")
    func tokenThenOrder() {
        var store = loggedIn()
        store.send(.intent(.buy(productId: "coins")), effects: [.fetchAppAccountToken(user: "a")]) {
            $0.purchase = AppState.Purchase(user: "a", productId: "coins", awaitingToken: true)
            $0.hud = HUD(.purchasing, productId: "coins")
        }
        store.send(.appAccountTokenFetched(user: "a", .success(token)), effects: [.createOrder(user: "a", productId: "coins", storeKit: .two)]) {
            $0.session?.appAccountToken = token
            $0.purchase?.appAccountToken = token
            $0.purchase?.awaitingToken = false
        }
        // The purchase's own request answered too: no second order.
        store.send(.appAccountTokenFetched(user: "a", .success(token)))
        store.send(.orderCreated(user: "a", productId: "coins", .success("O1")),
                   effects: [.recordIntent(user: "a", productId: "coins", orderId: "O1", appAccountToken: token, at: t0)])
        let intent = PaymentIntent(id: 7, user: "a", productId: "coins", orderId: "O1", createdAt: t0, appAccountToken: token)
        // StoreKit 2's purchase(options:) carries the token and no applicationUsername: the order id stays with the intent.
        store.send(.intentRecorded(user: "a", productId: "coins", intent), effects: [
            .addPayment(Payment(productId: "coins", applicationUsername: nil, pressedBy: "a", id: 7, appAccountToken: token, storeKit: .two)),
            .readStoreQueue(after: AppState.lookAgainAfterPayment),
        ]) {
            $0.device.paymentIntents = [intent]
            $0.purchase?.paymentId = 7
        }
        store.send(.storeUpdated([StoreTransaction(id: "t1", productId: "coins", state: .failed, applicationUsername: nil, date: t0,
                                                   error: .cancelled, paymentId: 7, appAccountToken: token)]),
                   effects: [.closeIntent(7)]) {
            // purchase(options:)'s result: no transaction is left of it, so there is nothing to finish.
            $0.device.paymentIntents = []
            $0.purchase = nil
            $0.hud = HUD(.cancelled, productId: "coins", transactionId: "t1")
        }
        store.send(.key(.escape)) { $0.hud = nil }
        store.send(.intent(.buy(productId: "coins")), effects: [.createOrder(user: "a", productId: "coins", storeKit: .two)]) {
            $0.purchase = AppState.Purchase(user: "a", productId: "coins", appAccountToken: token)
            $0.hud = HUD(.purchasing, productId: "coins")
        }
    }

    @Test("no token from the backend: the order and the payment go ahead without one; a token answered later is kept for the next")
    func noToken() {
        var store = loggedIn()
        store.send(.intent(.buy(productId: "coins")), effects: [.fetchAppAccountToken(user: "a")]) {
            $0.purchase = AppState.Purchase(user: "a", productId: "coins", awaitingToken: true)
            $0.hud = HUD(.purchasing, productId: "coins")
        }
        store.send(.appAccountTokenFetched(user: "a", .failure(.unreachable)), effects: [.createOrder(user: "a", productId: "coins", storeKit: .two)]) {
            $0.purchase?.awaitingToken = false
        }
        // The login's request answered late, with a token: the order was asked for already, the payment goes without it.
        store.send(.appAccountTokenFetched(user: "a", .success(token))) { $0.session?.appAccountToken = token }
        store.send(.orderCreated(user: "a", productId: "coins", .failure(.unreachable)),
                   effects: [.recordIntent(user: "a", productId: "coins", orderId: nil, appAccountToken: nil, at: t0)])
        let intent = PaymentIntent(id: 8, user: "a", productId: "coins", orderId: nil, createdAt: t0)
        store.send(.intentRecorded(user: "a", productId: "coins", intent), effects: [
            .addPayment(Payment(productId: "coins", applicationUsername: nil, pressedBy: "a", id: 8, storeKit: .two)),
            .readStoreQueue(after: AppState.lookAgainAfterPayment),
        ]) {
            $0.device.paymentIntents = [intent]
            $0.purchase?.paymentId = 8
        }
    }

    @Test("a user switched in while the token was asked for: the payment goes on with the buyer's token, and b keeps none of a's")
    func switchedMeanwhile() {
        var store = loggedIn()
        store.send(.intent(.buy(productId: "coins")), effects: [.fetchAppAccountToken(user: "a")]) {
            $0.purchase = AppState.Purchase(user: "a", productId: "coins", awaitingToken: true)
            $0.hud = HUD(.purchasing, productId: "coins")
        }
        store.send(.switchUser("b"), effects: [.setLastUser(nil), .setLastUser("b"), .loadUser("b"), .refreshAccount("b"), .fetchAppAccountToken(user: "b"),
                                               .readStoreQueue(after: 0)]) {
            $0.user = "b"
            $0.session = Session(user: "b")
            $0.hud = nil
        }
        store.send(.appAccountTokenFetched(user: "a", .success(token)), effects: [.createOrder(user: "a", productId: "coins", storeKit: .two)]) {
            $0.purchase?.appAccountToken = token
            $0.purchase?.awaitingToken = false
        }
        #expect(store.state.session?.appAccountToken == nil)
    }
}
