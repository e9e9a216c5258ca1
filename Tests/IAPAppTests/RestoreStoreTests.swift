import Foundation
import IAPApp
import IAPCore
@testable import MockStore
import StoreSigning
import Testing

/// The store's side of Restore Purchases (S8): what comes back, to whom, on which device, and that asking again while
/// a restore is unfinished piles nothing up.
@Suite("Restore Purchases in the store")
final class RestoreStoreTests {
    private let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iapsim-restore-\(UUID().uuidString)").path
    private let timers = TimerQueue(virtualStart: AppSession.epoch)
    private var heard: [StoreTransaction] = []

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    private func queue(on device: String = StoreDatabase.firstDevice, faults: ArmedFaults = []) throws -> MockPaymentQueue {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let queue = try MockPaymentQueue(database: StoreDatabase(path: folder + "/store.sqlite", device: device), catalog: shippedCatalog,
                                         signer: ChainSigner.of, scheduler: timers, faults: FaultBoard(faults))
        queue.add { [weak self] in self?.heard += $0 }
        return queue
    }

    /// A purchase Apple charged and the app finished.
    @discardableResult
    private func buy(_ productId: String, as account: String, order: String, on queue: MockPaymentQueue) -> String {
        queue.add(Payment(productId: productId, applicationUsername: order, pressedBy: account))
        timers.advance(by: 2)
        let id = heard.last { $0.productId == productId && $0.state == .purchased }!.id
        #expect(queue.finish(transactionId: id))
        return id
    }

    private func restore(_ account: String, on queue: MockPaymentQueue) -> Result<[String], StoreRequestError>? {
        var answer: Result<[String], StoreRequestError>?
        queue.restoreCompletedTransactions(account: account) { answer = $0 }
        #expect(answer == nil, "Apple answers after its latency")
        timers.advance(by: 2)
        return answer
    }

    private func records(_ queue: MockPaymentQueue) throws -> [String: StoreRecord] {
        Dictionary(uniqueKeysWithValues: try StoreDatabase(path: folder + "/store.sqlite").all().map { ($0.transaction.id, $0) })
    }

    @Test("every non-consumable the account owns comes back once, naming its first purchase and its order; consumables and other accounts' purchases do not")
    func nonConsumablesOfTheAccount() throws {
        let store = try queue()
        let noads = buy("com.iapsim.noads", as: "alice", order: "ORD-1", on: store)
        let ink = buy("com.iapsim.theme.ink", as: "alice", order: "ORD-2", on: store)
        buy("com.iapsim.coins.60", as: "alice", order: "ORD-3", on: store)
        buy("com.iapsim.pass.season", as: "alice", order: "ORD-4", on: store)
        buy("com.iapsim.theme.ink", as: "bob", order: "ORD-5", on: store)
        heard = []
        let ids = try #require(try restore("alice", on: store)?.get())
        #expect(ids.count == 2)
        #expect(heard.map(\.id) == ids, "the observer hears of each before the restore is answered")
        #expect(heard.map(\.state) == [.restored, .restored])
        #expect(heard.map(\.productId) == ["com.iapsim.noads", "com.iapsim.theme.ink"])
        #expect(heard.map(\.originalTransactionId) == [noads, ink])
        #expect(heard.map(\.applicationUsername) == ["ORD-1", "ORD-2"])
        let stored = try records(store)
        #expect(ids.allSatisfy { stored[$0]?.account == "alice" && stored[$0]?.finished == false })
        #expect(ids.allSatisfy { (try? StoreDatabase(path: folder + "/store.sqlite").device(of: $0)) == StoreDatabase.firstDevice })
        #expect(try restore("carol", on: store)?.get() == [], "an account that owns nothing gets nothing back")
    }

    @Test("each auto-renewable subscription comes back by its chain's latest charge, naming the chain's original, with that charge's expiry; auto-renew is left as it is")
    func latestOfEachSubscriptionChain() throws {
        let store = try queue()
        let yearly = "com.iapsim.vip.yearly"
        let first = buy(yearly, as: "alice", order: "ORD-1", on: store)
        // A year on, Apple renews it: a new charge in the chain, without an order.
        let due = try #require(store.nextSubscriptionEvent())
        timers.advance(by: due.timeIntervalSince(timers.now) + 1)
        let renewal = try #require(heard.last { $0.productId == yearly && $0.state == .purchased && $0.id != first })
        #expect(renewal.originalTransactionId == first)
        #expect(store.finish(transactionId: renewal.id))
        store.setAutoRenew(false, originalTransactionId: first)
        heard = []
        let ids = try #require(try restore("alice", on: store)?.get())
        #expect(ids.count == 1)
        #expect(heard.first?.productId == yearly && heard.first?.state == .restored)
        #expect(heard.first?.originalTransactionId == first)
        #expect(heard.first?.applicationUsername == nil, "the renewal's order, which it has none of")
        let details = try StoreDatabase(path: folder + "/store.sqlite").details([ids[0], renewal.id])
        #expect(details[ids[0]]?.expiresDate != nil && details[ids[0]]?.expiresDate == details[renewal.id]?.expiresDate)
        #expect(details[ids[0]]?.webOrderLineItemId == details[renewal.id]?.webOrderLineItemId)
        #expect(store.subscriptions(account: "alice").first?.state == .cancelled, "restoring is not resubscribing")
    }

    @Test("what Apple refunded is not the account's any more: it does not come back")
    func refundedIsNotRestored() throws {
        let store = try queue()
        let noads = buy("com.iapsim.noads", as: "alice", order: "ORD-1", on: store)
        #expect(try StoreDatabase(path: folder + "/store.sqlite").refund(noads, because: .OTHER, at: timers.now) != nil)
        #expect(try restore("alice", on: store)?.get() == [])
    }

    @Test("asked again while the restore is unfinished, the same transactions are answered and nothing piles up; once finished, a restore restores afresh")
    func idempotentWhileUnfinished() throws {
        let store = try queue()
        buy("com.iapsim.noads", as: "alice", order: "ORD-1", on: store)
        let first = try #require(try restore("alice", on: store)?.get())
        let again = try #require(try restore("alice", on: store)?.get())
        #expect(again == first)
        #expect(try records(store).count == 2)
        for id in first { #expect(store.finish(transactionId: id)) }
        let later = try #require(try restore("alice", on: store)?.get())
        #expect(later.count == 1 && later != first)
        #expect(try records(store).count == 3)
    }

    @Test("a purchase of the product this device still holds unfinished is left to finish, not restored beside it")
    func unfinishedPurchaseIsNotRestored() throws {
        let store = try queue()
        store.add(Payment(productId: "com.iapsim.noads", applicationUsername: "ORD-1", pressedBy: "alice"))
        timers.advance(by: 2)  // purchased, not finished
        #expect(try restore("alice", on: store)?.get() == [])
    }

    @Test("a purchase still unfinished on another device (maybe not yet credited) is restored only once it is finished there")
    func unfinishedElsewhereWaits() throws {
        let phone = try queue()
        phone.add(Payment(productId: "com.iapsim.noads", applicationUsername: nil, pressedBy: "alice"))
        timers.advance(by: 2)  // purchased on the phone, its verification still to come
        let paid = try #require(heard.last).id
        let tablet = try queue(on: "tablet")
        #expect(try restore("alice", on: tablet)?.get() == [])
        #expect(phone.finish(transactionId: paid))
        #expect(try restore("alice", on: tablet)?.get().count == 1)
        // A restore still unfinished on one device does not hold up another's: its original is finished.
        let watch = try queue(on: "watch")
        #expect(try restore("alice", on: watch)?.get().count == 1)
    }

    @Test("a restore on another device lands in that device's queue; the first device's queue does not see it")
    func restoreOnAnotherDevice() throws {
        let phone = try queue()
        buy("com.iapsim.noads", as: "alice", order: "ORD-1", on: phone)
        let tablet = try queue(on: "tablet")
        let ids = try #require(try restore("alice", on: tablet)?.get())
        #expect(ids.count == 1)
        #expect(try StoreDatabase(path: folder + "/store.sqlite").device(of: ids[0]) == "tablet")
        #expect(tablet.transactions(after: nil, limit: 10).map(\.id) == ids)
        #expect(phone.transactions(after: nil, limit: 10).isEmpty)
    }

    @Test("what a restore wrote is durable before anyone hears of it: a new process finds it unfinished in the device's queue")
    func durableBeforeTold() throws {
        let store = try queue()
        buy("com.iapsim.noads", as: "alice", order: "ORD-1", on: store)
        let ids = try #require(try restore("alice", on: store)?.get())
        let relaunched = try queue()  // the first process's objects are simply dropped, as a kill does
        #expect(relaunched.transactions(after: nil, limit: 10).map(\.id) == ids)
    }

    @Test("restore-fails answers with an error and writes nothing; one-shot, it is spent")
    func restoreFails() throws {
        var faults: ArmedFaults = []
        faults.insert(.restoreFails, FaultArm(once: true))
        let store = try queue(faults: faults)
        buy("com.iapsim.noads", as: "alice", order: "ORD-1", on: store)
        #expect(restore("alice", on: store) == .failure(.failed))
        #expect(try records(store).count == 1)
        #expect(!store.faults.isArmed(.restoreFails))
        #expect(try restore("alice", on: store)?.get().count == 1)
    }
}
