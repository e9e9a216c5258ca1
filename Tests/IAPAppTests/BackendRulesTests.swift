import Foundation
import IAPCore
import MockStore
import Testing

@Suite("Backend and store rules (B1–B5, S4–S6, C5)")
struct BackendRulesTests {
    /// A paid, unverified transaction; the client is stopped and the backend is up, so the test talks to it alone.
    private func backendAlone() throws -> Harness {
        let app = try Harness.paidWhile()
        app.runtime.halt(afterEffects: 0)
        app.parties.faults.set(.backendDown, nil)
        return app
    }

    private func order(_ app: Harness, for user: String, productId: String = "com.iapsim.coins.60") throws -> String {
        var orderId: String?
        app.parties.backend.createOrder(user: user, productId: productId) { orderId = try? $0.get() }
        app.advance(1)
        return try #require(orderId)
    }

    private func verify(_ app: Harness, _ request: VerifyRequest) -> Result<VerifyResponse, BackendError>? {
        var answer: Result<VerifyResponse, BackendError>?
        app.parties.backend.verify(request) { answer = $0 }
        app.advance(2)
        return answer
    }

    private func request(_ app: Harness, receipt: String? = nil, orderId: String? = nil, user: String = "alice") throws -> VerifyRequest {
        let transaction = try #require(try app.storeTransactions().first?.0)
        return VerifyRequest(receipt: receipt ?? app.parties.store.appReceipt()!, transactionId: transaction.id,
                             productId: transaction.productId, orderId: orderId, user: user)
    }

    @Test("the receipt lists the unfinished consumable, is base64, and a tampered one fails with 21003")
    func tamperedReceipt() throws {
        let app = try backendAlone()
        let receipt = try ReceiptDER(try #require(app.parties.store.appReceipt()))
        #expect(receipt.contains("com.iapsim.coins.60"))
        let tampered = receipt.replacing("com.iapsim.coins.60", with: "com.iapsim.coins.98")
        let answer = verify(app, try request(app, receipt: tampered.base64))
        #expect(answer == .success(.apple(ReceiptStatus.notAuthenticated)))
        #expect(answer == .success(VerifyResponse(result: .rejected, appleStatus: 21003)))
        // 21002 may be Apple's temporary issue ("Try again"): money was paid, so the backend keeps it and asks Apple again
        // itself, never finished unpaid.
        #expect(verify(app, try request(app, receipt: "not base64!")) == .success(.pending(appleStatus: 21002)))
        #expect(try app.credits().isEmpty)
    }

    @Test("S6: a finished consumable leaves the receipt; a finished non-consumable stays in it")
    func receiptContents() throws {
        let app = try Harness.paidWhile([])
        #expect(try app.storeTransactions().allSatisfy(\.finished))
        #expect(app.parties.store.appReceipt() == nil)
        app.press(.escape, .down, .down, .down, .enter)  // Remove Ads
        app.advance(3)
        let receipt = try ReceiptDER(try #require(app.parties.store.appReceipt()))
        #expect(receipt.contains("com.iapsim.noads"))
        #expect(!receipt.contains("com.iapsim.coins.60"))
    }

    @Test("a sandbox receipt sent to production (21007) is retried against sandbox and credited; a replay credits nothing more")
    func sandboxRetryAndReplay() throws {
        let app = try backendAlone()
        let orderId = try order(app, for: "alice")
        let first = verify(app, try request(app, orderId: orderId))
        #expect(first == .success(.credited(user: "alice", new: true)))
        let replay = verify(app, try request(app, orderId: orderId))
        #expect(replay == .success(.credited(user: "alice", new: false)))
        #expect(try app.credits().count == 1)
    }

    @Test("B3/I3: the credit goes to the order's owner, never to whoever asks")
    func creditToOrderOwner() throws {
        let app = try backendAlone()
        _ = verify(app, try request(app, orderId: try order(app, for: "alice"), user: "mallory"))
        #expect(try app.credits().map(\.user) == ["alice"])
    }

    @Test("B4: an order for another product credits what was paid; no order at all creates one for the user")
    func bindingRepair() throws {
        let app = try backendAlone()
        _ = verify(app, try request(app, orderId: try order(app, for: "alice", productId: "com.iapsim.noads")))
        #expect(try app.credits().map(\.productId) == ["com.iapsim.coins.60"])

        let other = try backendAlone()
        _ = verify(other, try request(other, orderId: nil, user: "alice"))
        let credit = try #require(try other.credits().first)
        #expect(credit.user == "alice" && credit.orderId.hasPrefix("ORD-"))
    }

    @Test("B5: an order support compensated by hand is finished by the client without a credit")
    func compensatedBySupport() throws {
        let app = try backendAlone()
        let orderId = try order(app, for: "alice")
        #expect(try app.parties.backend.database.markCompensated(orderId: orderId, at: app.timers.now))
        let compensated = verify(app, try request(app, orderId: orderId))
        #expect(compensated == .success(.compensated))
        #expect(compensated.map { VerifyOutcome($0) } == .valid)
        #expect(try app.credits().isEmpty)
    }

    @Test("B5: a refund revokes the credit and a replay does not bring it back")
    func refund() throws {
        let app = try Harness.paidWhile([])
        let credit = try #require(try app.credits().first)
        #expect(try app.parties.backend.database.refund(transactionId: credit.transactionId, at: app.timers.now))
        #expect(try app.credits().isEmpty)
        var account: Account?
        app.parties.backend.account(user: "alice") { account = try? $0.get() }
        app.advance(0.1)
        #expect(account?.coins == 0)
    }

    @Test("C5: verified but finish cannot find it: flagged, not counted pending, finished when the store shows it again")
    func verifiedButNotFinished() throws {
        let app = try Harness.paidWhile([.finishNotFound])
        #expect(try app.credits().count == 1)
        #expect(try app.clientOrders().map(\.status) == [.verified])
        #expect(app.state.pendingCount == 0)
        #expect(try app.storeTransactions().allSatisfy { !$0.finished })
        try app.relaunch(faults: [])
        app.advance(1)
        #expect(try app.clientOrders().isEmpty)
        #expect(try app.storeTransactions().allSatisfy(\.finished))
        #expect(try app.credits().count == 1)
    }

    @Test("S4: an unfinished consumable blocks buying the same product again (parallel policy)")
    func unfinishedBlocksSameProduct() throws {
        let app = try Harness(user: "alice", faults: [.backendDown], serial: false)
        app.advance(0.5)
        app.press(.enter)
        app.advance(3)
        app.press(.escape, .enter)
        app.advance(1)
        #expect(app.screen().contains("Purchase failed"))
        let store = try app.storeTransactions()
        #expect(store.count == 2)
        #expect(store[1].0.error == .alreadyPending)
        #expect(try app.credits().isEmpty)
    }

    @Test("21003 through the client: 'Verification failed, please contact support', finished, nothing credited")
    func rejectedThroughClient() throws {
        let app = try Harness(user: "alice", faults: [.verifyStatus])  // 21003 by default
        app.advance(0.5)
        app.press(.enter)
        app.advance(3)
        #expect(app.screen().contains("Verification failed, please contact support"), "\(app.screen())")
        #expect(try app.credits().isEmpty)
        #expect(try app.storeTransactions().allSatisfy(\.finished))
        #expect(try app.clientOrders().isEmpty)
    }

    /// Found by the explorer (seed 722): 小明's Remove Ads, paid with the backend down, waits unverified on the phone; he
    /// buys it again on the tablet (a restore, free) and whoever carries that restore must not be credited for it.
    @Test("a restore verified before its original credits nobody: it waits, then finds the original's owner")
    func restoreBeforeItsOriginal() throws {
        let noAds = "com.iapsim.noads"
        let app = try Harness(user: "小明", faults: [.backendDown])
        app.advance(0.5)
        app.buy(noAds)  // paid, saved for 小明 on the phone, not verified
        let original = try #require(try app.storeRecords().first { $0.transaction.productId == noAds && $0.transaction.state == .purchased })
        try app.session.move(to: "tablet", user: "小明", faults: [.backendDown, .emptyApplicationUsername])
        app.advance(1)
        app.buy(noAds)  // owned already: a free purchase of the original
        app.runtime.halt(afterEffects: 0)
        app.parties.faults.set(.backendDown, nil)
        let restored = try #require(try app.storeRecords().first { $0.transaction.state == .purchased && $0.transaction.originalTransactionId != nil })
        #expect(restored.transaction.originalId == original.transaction.id)
        let receipt = try #require(app.parties.store.appReceipt())
        let asAlice = VerifyRequest(receipt: receipt, transactionId: restored.transaction.id, productId: noAds, orderId: nil, user: "alice")
        #expect(verify(app, asAlice) == .success(.pending))
        #expect(try app.credits().isEmpty)
        // The original, verified by its buyer, names the owner; the restore then finds that credit, whoever carries it.
        let byBuyer = VerifyRequest(receipt: receipt, transactionId: original.transaction.id, productId: noAds, orderId: nil, user: "小明")
        #expect(verify(app, byBuyer) == .success(.credited(user: "小明", new: true)))
        #expect(verify(app, asAlice) == .success(.credited(user: "小明", new: false)))
        #expect(try app.credits().map(\.user) == ["小明"])
    }

    /// Found by the explorer (seed 4879): a renewal taken while the app ran on another device waits in the first device's
    /// queue; Apple's DID_RENEW tells the backend of it at once, and names the chain.
    @Test("a renewal is credited to its chain's subscriber when Apple's DID_RENEW arrives, once, whoever verifies it later")
    func renewalCreditedFromDidRenew() throws {
        let monthly = "com.iapsim.vip.monthly"
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.buy(monthly)
        app.advance(5)
        #expect(try app.credits().filter { $0.productId == monthly }.map(\.user) == ["alice"])
        try app.session.move(to: "tablet", user: "bob")
        let due = try #require(app.parties.store.nextSubscriptionEvent())
        app.advance(due.timeIntervalSince(app.timers.now) + 1)
        let renewal = try #require(try app.storeRecords().last { $0.transaction.productId == monthly && $0.transaction.state == .purchased })
        #expect(renewal.transaction.originalId != renewal.transaction.id && !renewal.finished)
        // Nobody's app on the phone has heard of it; the backend has, from Apple.
        let credited = try app.credits().filter { $0.productId == monthly }
        #expect(credited.map(\.transactionId) == [renewal.transaction.originalId, renewal.transaction.id])
        #expect(credited.allSatisfy { $0.user == "alice" })
        // bob's launch on the phone carries it; the backend finds it credited and the store's queue empties.
        try app.session.move(to: StoreDatabase.firstDevice, user: "bob")
        app.advance(10)
        #expect(try app.credits().filter { $0.productId == monthly }.count == 2)
        #expect(try app.storeRecords().allSatisfy(\.finished))
    }
}
