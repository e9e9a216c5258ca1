import Foundation
import IAPCore
import Testing

@Suite("Verify queue policy (C4, C10)")
struct VerifyPolicyTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    func order(_ id: String, attempts: Int, minutesAgo: Double = 0) -> PendingOrder {
        PendingOrder(transactionId: id, user: "alice", productId: "p", orderId: nil,
                     purchasedAt: t0.addingTimeInterval(-60 * minutesAgo), price: "¥6", receiptHash: nil,
                     attempts: attempts, lastAttemptAt: attempts > 0 ? t0 : nil)
    }

    @Test("back-off is attempts × step, capped")
    func backoff() {
        let policy = VerifyPolicy(step: 3, cap: 10)
        #expect((0...5).map { policy.backoff(afterAttempts: $0) } == [0, 3, 6, 9, 10, 10])
    }

    @Test("never-verified first, then fewest attempts, then oldest purchase")
    func ordering() {
        let orders = [order("c", attempts: 2, minutesAgo: 9), order("a", attempts: 0, minutesAgo: 1),
                      order("b", attempts: 1, minutesAgo: 5), order("d", attempts: 0, minutesAgo: 3)]
        #expect(orders.sorted(by: VerifyPolicy.precedes).map(\.transactionId) == ["d", "a", "b", "c"])
    }

    @Test("five quick retries after a trigger fit within a minute, then only a trigger retries")
    func quickRetries() {
        let policy = VerifyPolicy()
        let total = (1...policy.quickRetries).reduce(0.0) { $0 + policy.backoff(afterAttempts: $1) }
        #expect(total <= 60)
        #expect(policy.nextAttempt(for: order("x", attempts: 7), triesSinceTrigger: policy.quickRetries) == nil)
        #expect(policy.nextAttempt(for: order("x", attempts: 7), triesSinceTrigger: 0) == .distantPast)
    }

    @Test("the backend's verdicts, and Apple's statuses behind them, map to valid, invalid, retry or misconfigured")
    func outcomes() {
        func outcome(_ status: Int) -> VerifyOutcome { VerifyOutcome(.success(.apple(status))) }
        #expect(VerifyOutcome(.success(.credited(user: "a", new: true))) == .valid)
        #expect(VerifyOutcome(.success(.credited(user: "a", new: false))) == .alreadyCredited)
        #expect(VerifyOutcome(.success(.compensated)) == .valid)
        for status in [21003, 21006, 21010] { #expect(outcome(status) == .invalid(status: status)) }
        for status in [21002, 21005, 21009, 21100, 21199, 21001, 21007, 21008] {
            #expect(outcome(status) == .retry(reason: .appleUnavailable(status)))
        }
        for status in [21000, 21004] { #expect(outcome(status) == .misconfigured(status: status)) }
        #expect(VerifyOutcome(.success(.pending)) == .retry(reason: .verificationPending))
        #expect(VerifyOutcome(.success(.notInReceipt)) == .retry(reason: .notInReceipt))
        #expect(VerifyOutcome(.failure(.unreachable)) == .retry(reason: .backendUnreachable))
        #expect(VerifyOutcome(.failure(.http(503))) == .retry(reason: .http(503)))
    }
}

@Suite("Reducer rules without any party")
struct ReducerTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    let product = Product(id: "coins", kind: .consumable, title: Localized("60 Coins"), summary: Localized(""),
                          price: Localized("¥6"), coins: 60)

    func loggedIn() -> AppState {
        var state = AppState(now: t0)
        _ = state.reduce(.productsLoaded(.success([product])), now: t0)
        _ = state.reduce(.key(.char("a")), now: t0)
        _ = state.reduce(.key(.enter), now: t0)
        _ = state.reduce(.userLoaded("a", UserSnapshot()), now: t0)
        return state
    }

    @Test("buying asks for an order first, and pays only after a durable payment intent")
    func orderBeforePayment() {
        var state = loggedIn()
        #expect(state.reduce(.key(.enter), now: t0) == [.createOrder(user: "a", productId: "coins")])
        let effects = state.reduce(.orderCreated(user: "a", productId: "coins", .success("ORD-1")), now: t0)
        #expect(effects == [.recordIntent(user: "a", productId: "coins", orderId: "ORD-1", appAccountToken: nil, at: t0)])
        let intent = PaymentIntent(id: 1, user: "a", productId: "coins", orderId: "ORD-1", createdAt: t0)
        #expect(state.reduce(.intentRecorded(user: "a", productId: "coins", intent), now: t0) == [
            .addPayment(Payment(productId: "coins", applicationUsername: "ORD-1", pressedBy: "a", id: 1)),
            .readStoreQueue(after: AppState.lookAgainAfterPayment),
        ])
    }

    @Test("a paid transaction is persisted before anything talks to the backend (C2)")
    func persistBeforeVerify() {
        var state = loggedIn()
        _ = state.reduce(.key(.enter), now: t0)
        _ = state.reduce(.orderCreated(user: "a", productId: "coins", .success("ORD-1")), now: t0)
        let paid = StoreTransaction(id: "t1", productId: "coins", state: .purchased, applicationUsername: "ORD-1", date: t0)
        let effects = state.reduce(.storeUpdated([paid]), now: t0)
        #expect(effects.count == 1)
        guard case let .persist(order, _) = effects.first else { Issue.record("expected persist, got \(effects)"); return }
        #expect(order.orderId == "ORD-1" && order.user == "a" && order.status == .pending)
        #expect(state.reduce(.persisted(order, ok: true), now: t0) == [.verify(order)])
    }

    @Test("a failed write raises an alarm that is shown")
    func failedWriteAlarm() {
        var state = loggedIn()
        let order = PendingOrder(transactionId: "t1", user: "a", productId: "coins", orderId: nil, purchasedAt: t0, price: "¥6", receiptHash: nil)
        _ = state.reduce(.persisted(order, ok: false), now: t0)
        #expect(state.alarms.contains(.writeFailed(transactionId: "t1")))
    }

    @Test("finish only after a verdict: a retry keeps the order and schedules the next attempt (I4)")
    func retryKeepsOrder() {
        var state = loggedIn()
        let order = PendingOrder(transactionId: "t1", user: "a", productId: "coins", orderId: "O", purchasedAt: t0, price: "¥6", receiptHash: nil)
        _ = state.reduce(.persisted(order, ok: true), now: t0)
        let effects = state.reduce(.verified(order, .retry(reason: .backendUnreachable)), now: t0)
        #expect(!effects.contains { if case .finish = $0 { true } else { false } })
        #expect(state.orders["t1"]?.attempts == 1)
    }

    @Test("the keymap that dispatches is the one the hint bar shows")
    func keymapDrivesHints() {
        for context in KeyContext.allCases {
            for binding in Keymap.hints(for: context) {
                #expect(Keymap.command(for: binding.keys[0], in: context) == binding.command)
            }
        }
        #expect(Keymap.command(for: .char("q"), in: .login) == nil)  // typed into the name
        #expect(Keymap.command(for: .char("q"), in: .loginEmpty) == .quit)
    }
}
