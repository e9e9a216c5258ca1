import Foundation
import IAPCore
import Testing

/// The verify queue alone: what it hands the verify task, and when (C4, C8, C10).
@Suite("The verify queue")
struct VerifyQueueTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    let policy = VerifyPolicy(step: 3, cap: 30, quickRetries: 2)

    func order(_ id: String, attempts: Int = 0, lastAttemptAgo: Double = 0) -> PendingOrder {
        PendingOrder(transactionId: id, user: "a", productId: "p", orderId: nil, purchasedAt: t0.addingTimeInterval(-100), price: "¥6",
                     receiptHash: nil, attempts: attempts, lastAttemptAt: attempts > 0 ? t0.addingTimeInterval(-lastAttemptAgo) : nil)
    }

    func orders(_ list: PendingOrder...) -> [String: PendingOrder] {
        Dictionary(uniqueKeysWithValues: list.map { ($0.transactionId, $0) })
    }

    @Test("never-verified first; an order waiting for the user's answer, or put off, is not touched")
    func order() {
        var queue = VerifyQueue()
        let all = orders(order("old", attempts: 3, lastAttemptAgo: 100), order("new"), order("asked"))
        #expect(queue.pump(all, asked: ["asked"], policy: policy, now: t0) == .verify(all["new"]!))
        queue.putOff("old")
        #expect(queue.pump(orders(order("old", attempts: 3, lastAttemptAgo: 100)), asked: [], policy: policy, now: t0) == .idle)
    }

    @Test("after its quick retries an order waits for a trigger; before them, for its back-off")
    func quickRetriesThenTrigger() {
        var queue = VerifyQueue()
        let failing = order("x", attempts: 1, lastAttemptAgo: 0)
        #expect(queue.pump(orders(failing), asked: [], policy: policy, now: t0) == .verify(failing))
        #expect(queue.pump(orders(failing), asked: [], policy: policy, now: t0) == .wake(t0.addingTimeInterval(3)))
        #expect(queue.pump(orders(failing), asked: [], policy: policy, now: t0.addingTimeInterval(3)) == .verify(failing))
        #expect(queue.pump(orders(failing), asked: [], policy: policy, now: t0.addingTimeInterval(60)) == .idle)
        queue.trigger()
        #expect(queue.pump(orders(failing), asked: [], policy: policy, now: t0.addingTimeInterval(60)) == .verify(failing))
    }

    @Test("Continue puts the order first, even put off and out of retries")
    func continueNow() {
        var queue = VerifyQueue()
        let all = orders(order("a"), order("b", attempts: 5, lastAttemptAgo: 0))
        queue.putOff("b")
        queue.triesSinceTrigger["b"] = 9
        queue.continueNow("b")
        #expect(queue.pump(all, asked: [], policy: policy, now: t0) == .verify(all["b"]!))
        #expect(queue.pump(all, asked: [], policy: policy, now: t0) == .verify(all["a"]!))
    }
}
