import Foundation
import IAPCore
import MockStore
import Testing

/// The stories of issue 11, each ending with the money where it belongs. They use only what a person does (keys,
/// waits, kills, relaunches) and what each party holds, so the same file runs against any version of the app.
@Suite("Money goes to the person who paid (I3, I7, S10)")
struct MoneyToThePayerTests {
    private func select(_ app: Harness, _ productId: String) {
        let index = shippedCatalog.firstIndex { $0.id == productId }!
        for _ in 0..<shippedCatalog.count { app.press(.up) }
        for _ in 0..<index { app.press(.down) }
    }

    private func credits(_ app: Harness, _ user: String) throws -> [String] {
        try app.credits().filter { $0.user == user }.map(\.productId)
    }

    @Test("stale intent: alice cancelled 60 Coins; bob's order-less 60 Coins, killed mid-payment, is never alice's")
    func staleIntentOfACancelledPayment() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.press(.enter)  // 60 Coins
        app.advance(0.3)
        app.press(.escape)  // Cancel on the sheet
        app.advance(2)
        #expect(app.screen().contains("Purchase cancelled"))
        app.logIn("bob")
        app.session.set(.backendDown, FaultArm())
        app.press(.enter)  // 60 Coins, no order: the backend is down
        app.advance(0.5)
        #expect(app.screen().contains("Purchasing…"))
        try app.relaunch(user: "alice", faults: [])  // killed while the store still says purchasing
        app.advance(30)  // alice touches nothing
        #expect(try credits(app, "alice").isEmpty)
        try app.relaunch(user: "bob", faults: [])
        app.advance(1)
        app.press(.enter)  // Continue
        app.advance(5)
        #expect(try credits(app, "bob") == ["com.iapsim.coins.60"])
        #expect(try app.clientOrders().isEmpty)
    }

    @Test("same product, two users: 小明's Remove Ads, killed mid-payment, is not taken as alice's purchase in flight")
    func sameProductTwoUsers() throws {
        let app = try Harness(user: "小明", faults: [.backendDown])
        app.advance(0.5)
        select(app, "com.iapsim.noads")
        app.press(.enter)
        app.advance(0.5)
        try app.relaunch(user: "alice", faults: [])  // killed while purchasing
        app.advance(0.5)
        select(app, "com.iapsim.noads")
        app.press(.enter)  // alice buys straight away
        app.advance(30)
        #expect(try credits(app, "alice").isEmpty)
        try app.relaunch(user: "小明", faults: [])
        app.advance(1)
        if app.screen().contains("Unfinished order found") { app.press(.enter) }
        app.advance(5)
        #expect(try credits(app, "小明") == ["com.iapsim.noads"])
        #expect(try credits(app, "alice").isEmpty)
        let charges = try app.storeTransactions().filter { $0.0.state == .purchased }
        #expect(charges.count == 1)
    }

    @Test("owned, never charged again: Remove Ads bought twice is a regular purchase Apple does not charge (S7), credited once")
    func ownedIsPurchasedNotCharged() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        select(app, "com.iapsim.noads")
        app.press(.enter)
        app.advance(5)
        #expect(app.screen().contains("Purchase complete"))
        app.press(.escape)
        app.press(.enter)  // again
        app.advance(0.5)
        #expect(app.screen().contains("You've already purchased this. It will be restored for free."))
        #expect(!app.screen().contains("Remove Ads · ¥18"))  // nothing to pay
        app.advance(5)
        // Apple's guide: "the App Store creates a regular transaction instead of a restore transaction".
        #expect(app.screen().contains("Purchase complete"))
        #expect(!app.screen().contains("Purchases restored"))
        let store = try app.storeTransactions()
        #expect(store.count == 2 && store.allSatisfy { $0.0.state == .purchased })
        #expect(store.last?.0.originalTransactionId == store.first?.0.id)
        #expect(try app.credits().count == 1)
        #expect(store.allSatisfy { $0.finished })
        #expect(try app.clientOrders().isEmpty)
        // Charged once: Apple tells the server of one charge (ONE_TIME_CHARGE), not of the free one.
        let charges = try app.parties.store.database.recentNotifications(limit: 50).filter { $0.notification.kind == .oneTimeCharge }
        #expect(charges.count == 1)
    }

    @Test("a server that keys its ledger on the transaction id credits the free re-buy again (ledger-by-transaction-id)")
    func ledgerByTransactionId() throws {
        var faults = ArmedFaults()
        faults.insert(.ledgerByTransactionId)
        let app = try Harness(user: "alice", faults: faults)
        app.advance(0.5)
        app.buy("com.iapsim.noads")
        app.buy("com.iapsim.noads")
        #expect(try app.credits().count == 2)
        #expect(try app.storeTransactions().filter { $0.0.originalTransactionId == nil }.count == 1)
    }

    @Test("the same for an active subscription: Monthly VIP is not charged twice")
    func subscriptionNotChargedTwice() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        select(app, "com.iapsim.vip.monthly")
        app.press(.enter)
        app.advance(5)
        let news = try app.parties.store.database.recentNotifications(limit: 50).count
        app.press(.escape, .enter)
        app.advance(5)
        // Apple's guide: a regular transaction, not a restore; the chain's original, its period, no new charge.
        #expect(app.screen().contains("Purchase complete"))
        let store = try app.storeTransactions()
        #expect(store.count == 2 && store.allSatisfy { $0.0.state == .purchased && $0.finished })
        #expect(store.last?.0.originalTransactionId == store.first?.0.id)
        let details = try app.storeDetails(store.map(\.0.id))
        #expect(details[store.last!.0.id]?.webOrderLineItemId == details[store.first!.0.id]?.webOrderLineItemId)
        #expect(details[store.last!.0.id]?.expiresDate == details[store.first!.0.id]?.expiresDate)
        #expect(try app.credits().count == 1)
        #expect(try app.parties.store.database.recentNotifications(limit: 50).count == news)
        #expect(try app.clientOrders().isEmpty)
    }

    /// Found by the explorer (seed 290, once a re-buy of a subscription was a purchase): Apple refunded the free
    /// re-buy, which charged nothing, and the charge it repeats kept its period, overlapping the next one.
    @Test("a refund is of a charge: the account's latest refund, or one named by a free re-buy, takes back the charge it repeats")
    func refundTakesTheCharge() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.buy("com.iapsim.vip.monthly")
        app.buy("com.iapsim.vip.monthly")
        app.buy("com.iapsim.noads")
        app.buy("com.iapsim.noads")
        let store = try app.storeTransactions().map(\.0)
        #expect(store.count == 4)
        #expect(app.parties.store.refund(account: "alice") == store[2].id)
        #expect(app.parties.store.refund(transactionId: store[1].id) == store[0].id)
        let details = try app.storeDetails(store.map(\.id))
        #expect(details[store[0].id]?.cancellationDate != nil && details[store[2].id]?.cancellationDate != nil)
        #expect(details[store[1].id]?.cancellationDate == nil && details[store[3].id]?.cancellationDate == nil)
        #expect(app.parties.store.refund(account: "alice") == nil)
    }

    /// From a newcomer's walk: the HUD kept "Waiting for approval" long after the parent said no; StoreKit 1 tells the
    /// observer (the deferred transaction fails), so the HUD still open on it says so. StoreKit 2 is told nothing.
    @Test("Ask to Buy declined while its HUD is open: StoreKit 1's HUD says the purchase failed, StoreKit 2's still waits",
          arguments: [StoreKitMode.one, .two])
    func askToBuyDeclinedHUD(storeKit: StoreKitMode) throws {
        var once = ArmedFaults()
        once.insert(.askToBuy, FaultArm(value: "decline", once: true))
        let app = try Harness(user: "alice", faults: once, storeKit: storeKit)
        app.advance(0.5)
        app.press(.enter)
        app.advance(2)
        #expect(app.screen().contains("Waiting for approval"))
        app.advance(20)
        #expect(app.screen().contains("Purchase failed") == (storeKit == .one), "\(app.screen())")
        #expect(app.screen().contains("Waiting for approval") == (storeKit == .two))
        #expect(try app.credits().isEmpty)
    }

    @Test("Ask to Buy: a parent's 'decline' armed once stays a decline after the app is killed and relaunched")
    func askToBuyDeclineSurvivesRelaunch() throws {
        var once = ArmedFaults()
        once.insert(.askToBuy, FaultArm(value: "decline", once: true))
        let app = try Harness(user: "alice", faults: once)
        app.advance(0.5)
        app.press(.enter)
        app.advance(2)
        #expect(app.screen().contains("Waiting for approval"))
        try app.relaunch()
        app.advance(20)
        #expect(try app.credits().isEmpty)
        #expect(try app.storeTransactions().allSatisfy { $0.0.state == .failed && $0.finished })
        #expect(try app.clientOrders().isEmpty)
    }

    @Test("Ask to Buy approved: charged, and dated (the receipt's purchase_date), when the parent approves, not when alice asked")
    func askToBuyDatedAtApproval() throws {
        var once = ArmedFaults()
        once.insert(.askToBuy, FaultArm(value: "approve", once: true))
        let app = try Harness(user: "alice", faults: once)
        app.advance(0.5)
        let asked = app.timers.now
        app.press(.enter)
        app.advance(20)
        let (transaction, finished) = try #require(try app.storeTransactions().first)
        #expect(transaction.state == .purchased && finished)
        #expect(transaction.date.timeIntervalSince(asked) >= MockPaymentQueue.askToBuyDecision, "\(transaction.date) vs \(asked)")
        #expect(try app.credits().map(\.user) == ["alice"])
    }

    /// Explorer seed 955674's other half: a member's family copy revoked while bob's payment was on its sheet; the store
    /// rightly charged him once the sheet closed, but dated the charge when the sheet opened, while the copy still held.
    @Test("a purchase is dated (purchase_date) when Apple charged it, as the sheet closed, not when the sheet opened")
    func purchaseDatedAtTheCharge() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        let pressed = app.timers.now
        app.press(.enter)
        app.advance(5)
        let (transaction, finished) = try #require(try app.storeTransactions().first)
        #expect(transaction.state == .purchased && finished)
        #expect(transaction.date.timeIntervalSince(pressed) >= MockPaymentQueue.Latency().payment, "\(transaction.date) vs \(pressed)")
        #expect(try app.credits().map(\.user) == ["alice"])
    }

    @Test("interrupted purchase: killed between 'failed' and 'purchased', Apple still completes it and alice is credited")
    func interruptedPurchaseKilledMidway() throws {
        var once = ArmedFaults()
        once.insert(.failedThenPurchased, FaultArm(once: true))
        let app = try Harness(user: "alice", faults: once)
        app.advance(0.5)
        app.press(.enter)
        app.advance(1.2)
        #expect(app.screen().contains("Purchase failed"))
        try app.relaunch()  // within the 2 s before the purchased half
        app.advance(10)
        if app.screen().contains("Unfinished order found") { app.press(.enter) }
        app.advance(5)
        #expect(try credits(app, "alice") == ["com.iapsim.coins.60"])
        #expect(try app.storeTransactions().allSatisfy(\.finished))
        #expect(try app.clientOrders().isEmpty)
    }

    @Test("lost callback: the HUD leaves 'Purchasing…' without a relaunch and the payment is credited")
    func lostCallbackRecoveredWithoutRelaunch() throws {
        let app = try Harness(user: "alice", faults: [.observerLost])
        app.advance(0.5)
        app.press(.enter)
        app.advance(10)
        #expect(!app.screen().contains("Purchasing…"))
        #expect(try credits(app, "alice") == ["com.iapsim.coins.60"])
        #expect(try app.clientOrders().isEmpty)
    }

    @Test("Esc on 'Purchasing…' after Apple took the payment: the HUD says it continues, and it is credited")
    func escapeAfterTheChargeContinuesInBackground() throws {
        let app = try Harness(user: "alice", faults: [.observerLost])
        app.advance(0.5)
        app.press(.enter)
        app.advance(1.5)  // charged, the callback lost
        app.press(.escape)
        #expect(app.screen().contains("Payment went through: it continues in the background"))
        app.advance(5)
        #expect(try credits(app, "alice") == ["com.iapsim.coins.60"])
        #expect(try app.clientOrders().isEmpty)
    }
}

extension MoneyToThePayerTests {
    /// Found by the explorer (seed 5383, once a re-buy was a purchase): Restore Purchases named the free re-buy as the
    /// original, whose own id was never credited, and its verification waited for ever.
    @Test("Restore Purchases after a free re-buy names the first purchase, and is credited")
    func restoreAfterAFreeRebuy() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.buy("com.iapsim.noads")
        app.buy("com.iapsim.noads")
        let first = try #require(try app.storeTransactions().first?.0.id)
        app.press(.escape, .char("R"))
        app.advance(10)
        let restored = try app.storeTransactions().filter { $0.0.state == .restored }
        #expect(restored.count == 1)
        #expect(restored.first?.0.originalTransactionId == first)
        #expect(try app.clientOrders().isEmpty)
        #expect(try app.credits().count == 1)
    }

    @Test("a non-consumable Apple refunded is not owned: buying it again is charged, not free")
    func refundedIsBoughtAgain() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.buy("com.iapsim.noads")
        let first = try #require(try app.storeTransactions().first?.0.id)
        #expect(app.parties.store.refund(transactionId: first) != nil)
        app.advance(1)
        app.buy("com.iapsim.noads")
        let again = try #require(try app.storeTransactions().last?.0)
        #expect(again.id != first && again.state == .purchased && again.originalTransactionId == nil)
    }
}

extension MoneyToThePayerTests {
    @Test("the first purchase refunded after a free re-buy: nothing is owned, so Restore Purchases brings nothing back and nothing waits")
    func restoreAfterTheOriginalWasRefunded() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.buy("com.iapsim.noads")
        app.buy("com.iapsim.noads")
        let first = try #require(try app.storeTransactions().first?.0.id)
        #expect(app.parties.store.refund(transactionId: first) != nil)
        app.advance(1)
        app.press(.escape, .char("R"))
        app.advance(60)
        #expect(try app.storeTransactions().filter { $0.0.state == .restored }.isEmpty)
        #expect(try app.clientOrders().isEmpty)
    }
}
