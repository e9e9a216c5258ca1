import AppleVocabulary
import Foundation
import IAPApp
import IAPCore
import MockBackend
import MockStore
import Testing

/// `--server-api`: the built-in backend as a modern server. It reads no receipt, hears notifications as Apple delivers
/// them (the notification faults befall them), credits a payment its notification names the payer of, and reads
/// Notification History when it starts.
@Suite("The built-in backend as a modern server (--server-api)")
struct ServerAPIModeTests {
    static let coins = "com.iapsim.coins.60"
    static let monthly = "com.iapsim.vip.monthly"

    /// The store's outbox entry of the latest notification of `kind`.
    static func entry(_ app: Harness, _ kind: StoreNotification.Kind) throws -> OutboxEntry {
        try #require(try app.parties.store.database.recentNotifications(limit: 50).first { $0.notification.kind == kind })
    }

    @Test("a StoreKit 2 payment the app never heard of (observer-lost) is credited to its payer from Apple's notification")
    func creditedFromTheNotification() throws {
        let app = try Harness(user: "alice", faults: [.observerLost], storeKit: .two, serverAPI: true)
        app.advance(0.5)
        app.select(Self.coins)
        app.press(.enter)
        app.advance(5)
        let paid = try #require(try app.storeRecords().first { $0.transaction.productId == Self.coins })
        #expect(try app.credits().map(\.transactionId) == [paid.transaction.id])
        #expect(try app.credits().first?.user == "alice")
        // Under the order the app made when Buy was pressed, not one of its own.
        #expect(try app.credits().first?.orderId == "ORD-000001")
        #expect(try Self.entry(app, .oneTimeCharge).delivery == .sent)
        // The app finds it at the next launch and verifies it: found credited, nothing more.
        try app.relaunch(faults: [])
        app.advance(0.5)
        if case .unfinished = app.state.modal { app.press(.enter) }
        app.advance(5)
        #expect(try app.credits().map(\.transactionId) == [paid.transaction.id])
        #expect(try app.storeRecords().first { $0.transaction.id == paid.transaction.id }?.finished == true)
    }

    @Test("without the mode, the same payment waits for the app (the control)")
    func waitsWithoutTheMode() throws {
        let app = try Harness(user: "alice", faults: [.observerLost], storeKit: .two)
        app.advance(0.5)
        app.select(Self.coins)
        app.press(.enter)
        app.advance(5)
        #expect(try app.credits().isEmpty)
    }

    /// What the backend answers a StoreKit 1 verification of the payment `app` holds pending, sent with `receipt`.
    static func verify(_ app: Harness, receipt: String) throws -> VerifyResponse? {
        let order = try #require(try app.clientOrders().first)
        var answer: VerifyResponse?
        app.parties.backend.verify(VerifyRequest(receipt: receipt, transactionId: order.transactionId, productId: order.productId, orderId: order.orderId,
                                                 user: "alice")) { answer = try? $0.get() }
        app.advance(2)
        return answer
    }

    @Test("StoreKit 1: the server reads no receipt, it asks the Server API about the transaction the app names")
    func storeKitOneReadsNoReceipt() throws {
        // The payment waits in the client, the backend down; then the app sends a receipt that is not one.
        let app = try Harness(user: "alice", faults: [.backendDown], serverAPI: true)
        app.advance(0.5)
        app.buy(Self.coins)
        #expect(try app.credits().isEmpty, "StoreKit 1's transaction names no appAccountToken: its notification credits nothing")
        app.session.set(.backendDown, nil)
        #expect(try Self.verify(app, receipt: "bm90IGEgcmVjZWlwdA==")?.result == .credited)
        #expect(try app.credits().first?.user == "alice")
        // The control: a server reading the receipt finds it malformed.
        let classic = try Harness(user: "alice", faults: [.backendDown])
        classic.advance(0.5)
        classic.buy(Self.coins)
        classic.session.set(.backendDown, nil)
        #expect(try Self.verify(classic, receipt: "bm90IGEgcmVjZWlwdA==")?.result != .credited)
        #expect(try classic.credits().isEmpty)
    }

    @Test("an order support settled by hand while Apple's notification was retried is not credited again when it arrives (B5)")
    func compensatedMeanwhile() throws {
        let app = try Harness(user: "alice", storeKit: .two, serverAPI: true)
        app.advance(0.5)
        app.select(Self.coins)
        app.press(.enter)
        // The order is made; then the backend goes down before Apple charges.
        app.advance(0.5)
        app.session.set(.backendDown, FaultArm())
        app.advance(5)
        #expect(try Self.entry(app, .oneTimeCharge).delivery == .pending)
        #expect(try app.parties.backend.database.markCompensated(orderId: "ORD-000001", at: app.timers.now))
        app.session.set(.backendDown, nil)
        app.advance(3_601)
        #expect(try Self.entry(app, .oneTimeCharge).delivery == .sent)
        #expect(try app.credits().isEmpty)
    }

    @Test("delivered twice (notification-twice): both attempts taken, the payment credited once")
    func deliveredTwice() throws {
        let app = try Harness(user: "alice", faults: [.notificationTwice], storeKit: .two, serverAPI: true)
        app.advance(0.5)
        app.buy(Self.coins)
        let told = try Self.entry(app, .oneTimeCharge)
        #expect(told.detour == .twice && told.attempts == 2 && told.delivery == .sent)
        #expect(try app.credits().count == 1)
        #expect(try app.credits().first?.coins == 60)
        // The inspector lists it as delivered twice, and the timeline tells both attempts.
        let view = app.session.inspectorView()
        #expect(view.notifications.contains { $0.type == "ONE_TIME_CHARGE" && $0.state == .deliveredTwice })
        #expect(app.session.timeline.entries(.en).filter { $0.text.hasPrefix("Apple → server: ONE_TIME_CHARGE") }.count == 2)
    }

    @Test("at every size the app supports, the inspector shows Apple's notifications, each on one line, and the timeline's latest entry under them (found by QA: at 64×18 both were blank rows)",
          arguments: [(64, 18), (80, 24), (100, 30)])
    func notificationsAndTimelineFit(width: Int, height: Int) throws {
        let app = try Harness(user: "alice", storeKit: .two, serverAPI: true)
        app.advance(0.5)
        app.buy("com.iapsim.coins.60")
        app.session.set(.notificationLost, FaultArm(once: true))  // a longer row: lost on the way
        app.buy("com.iapsim.coins.300")
        app.press(.char("i"))
        let rows = app.screen(width: width, height: height).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let notifications = try #require(rows.firstIndex { $0.contains("Server notifications") })
        let timeline = try #require(rows.firstIndex { $0.contains("Timeline") })
        let newest = rows[(notifications + 2)..<timeline].last { $0.contains { $0.isLetter } } ?? ""
        #expect(newest.contains("ONE_TIME_CHARGE") && newest.contains("lost"), "\(rows.joined(separator: "\n"))")
        #expect(timeline + 2 < rows.count - 2 && rows[timeline + 2].contains { $0.isLetter }, "\(rows.joined(separator: "\n"))")
    }

    @Test("a one-shot notification fault armed beside an unlimited one befalls the next notification: notification-twice:once with notification-lost never fired (found by QA)",
          arguments: [(Fault.notificationTwice, Fault.notificationLost), (.notificationLost, .notificationTwice)])
    func oneShotBesideUnlimited(once: Fault, always: Fault) throws {
        let app = try Harness(user: "alice", storeKit: .two, serverAPI: true)
        app.session.set(always, FaultArm())
        app.session.set(once, FaultArm(once: true))
        app.advance(0.5)
        app.buy("com.iapsim.coins.60")
        app.buy("com.iapsim.coins.300")
        let detours = try app.parties.store.database.recentNotifications(limit: 10).filter { $0.notification.kind == .oneTimeCharge }
            .reversed().map(\.detour)  // oldest first
        let said: [Fault: OutboxEntry.Detour] = [.notificationTwice: .twice, .notificationLost: .lost]
        #expect(detours == [said[once], said[always]], "\(detours)")
    }

    @Test("lost on the way (notification-lost): the refund reaches the backend only through Notification History, at its next start")
    func lostThenFoundInHistory() throws {
        let app = try Harness(user: "alice", storeKit: .two, serverAPI: true)
        app.advance(0.5)
        app.buy(Self.monthly)
        #expect(try app.parties.backend.database.entitlements().first?.revokedAt == nil)
        // Apple's question about the refund, then the refund: both lost.
        app.session.set(.notificationLost, FaultArm())
        // Named: its first month is a free trial, which the account's latest paid purchase never is.
        #expect(app.parties.store.refund(transactionId: try app.latestChargeId()) != nil)
        app.session.set(.notificationLost, nil)
        let refund = try Self.entry(app, .refund)
        #expect(refund.detour == .lost && refund.delivery == .sent)
        #expect(try Self.entry(app, .consumptionRequest).detour == .lost)
        #expect(try app.parties.backend.database.entitlements().first?.revokedAt == nil)
        try app.relaunch()
        #expect(try app.parties.backend.database.entitlements().first?.revokedAt != nil)
        #expect(try app.parties.backend.database.hasApplied(refund.notification.uuid))
    }

    /// alice subscribed to Monthly VIP; then, the backend down, Apple refunded it.
    static func refundedWhileTheBackendIsDown() throws -> Harness {
        let app = try Harness(user: "alice", storeKit: .two, serverAPI: true)
        app.advance(0.5)
        app.buy(monthly)
        app.session.set(.backendDown, FaultArm())
        #expect(app.parties.store.refund(transactionId: try app.latestChargeId()) != nil)  // named, as above
        return app
    }

    @Test("the backend down: the notification is not taken, and Apple's retry an hour later is")
    func retriedWhileTheBackendIsDown() throws {
        let app = try Self.refundedWhileTheBackendIsDown()
        var refund = try Self.entry(app, .refund)
        #expect(refund.delivery == .pending && refund.attempts == 1 && refund.lastError == "connection refused")
        #expect(try app.parties.backend.database.entitlements().first?.revokedAt == nil)
        app.session.set(.backendDown, nil)
        app.advance(3_601)
        refund = try Self.entry(app, .refund)
        #expect(refund.delivery == .sent && refund.attempts == 2)
        #expect(try app.parties.backend.database.entitlements().first?.revokedAt != nil)
    }

    @Test("a refund still waiting for Apple's retry when the app quits reaches the backend at the next launch without --server-api")
    func pendingWhenTheModeIsLeft() throws {
        let app = try Self.refundedWhileTheBackendIsDown()
        #expect(try Self.entry(app, .refund).delivery == .pending)
        // Relaunched as the backend that hears each notification at once.
        try app.session.close()
        var options = AppState(storeKit: .two)
        options.serverAPIBackend = false
        let classic = try AppSession(directory: app.directory, catalog: shippedCatalog, options: options, user: "alice",
                                     clock: .virtual(start: app.timers.now))
        #expect(try classic.parties.backend.database.entitlements().first?.revokedAt != nil)
        try classic.close()
    }

    @Test("held back (notification-out-of-order): the purchase's SUBSCRIBED comes after the next notification, and the charge is credited once")
    func outOfOrder() throws {
        let app = try Harness(user: "alice", faults: [.observerLost, .notificationOutOfOrder], storeKit: .two, serverAPI: true)
        app.advance(0.5)
        app.select(Self.monthly)
        app.press(.enter)
        app.advance(5)
        let subscribed = try Self.entry(app, .subscribed)
        #expect(subscribed.detour == .outOfOrder && subscribed.attempts == 0)
        #expect(try app.credits().isEmpty)
        // Turning auto-renew off (Settings › Subscriptions) tells DID_CHANGE_RENEWAL_STATUS, which passes it.
        app.session.set(.notificationOutOfOrder, nil)
        app.parties.store.setAutoRenew(false, originalTransactionId: try #require(subscribed.notification.transactionId))
        #expect(try Self.entry(app, .didChangeRenewalStatus).delivery == .sent)
        #expect(try Self.entry(app, .subscribed).delivery == .sent)
        #expect(try app.credits().count == 1)
        #expect(try app.credits().first?.user == "alice")
    }

    @Test("a SUBSCRIBED held back past the chain's REFUND, and the app's verification after both: the subscription is not granted")
    func subscribedAfterItsRefund() throws {
        // No token: the notification credits nothing, and the entitlement is made when the app verifies, after both.
        let app = try Harness(user: "alice", faults: [.emptyApplicationUsername, .observerLost, .notificationOutOfOrder], storeKit: .two, serverAPI: true)
        app.advance(0.5)
        app.select(Self.monthly)
        app.press(.enter)
        app.advance(5)
        #expect(try Self.entry(app, .subscribed).detour == .outOfOrder)
        app.session.set(.notificationOutOfOrder, nil)
        // Named: the account's latest paid purchase would be none, its first month a free trial.
        #expect(app.parties.store.refund(transactionId: try app.latestChargeId()) != nil)
        #expect(try Self.entry(app, .subscribed).delivery == .sent)
        try app.relaunch(faults: [])
        app.advance(0.5)
        if case .unfinished = app.state.modal { app.press(.enter) }
        app.advance(5)
        let entitlement = try #require(try app.parties.backend.database.entitlements().first)
        #expect(entitlement.revokedAt != nil)
        #expect(try !app.parties.backend.accountNow(user: "alice").owned.contains(Self.monthly))
    }

    @Test("a refund held back past its reversal (notification-out-of-order): REFUND_REVERSED, then REFUND, and the purchase still stands")
    func refundAfterItsReversal() throws {
        let app = try Harness(user: "alice", storeKit: .two, serverAPI: true)
        app.advance(0.5)
        app.buy("com.iapsim.noads")
        let paid = try #require(try app.storeRecords().first { $0.transaction.productId == "com.iapsim.noads" })
        app.session.set(.notificationOutOfOrder, FaultArm(once: true))
        #expect(app.parties.store.refund(transactionId: paid.transaction.id) == paid.transaction.id)
        #expect(try Self.entry(app, .refund).detour == .outOfOrder)
        #expect(app.parties.store.reverseRefund(transactionId: paid.transaction.id) == paid.transaction.id)
        // The reversal was delivered first and let the refund go after it.
        let refund = try Self.entry(app, .refund), reversal = try Self.entry(app, .refundReversed)
        #expect(refund.delivery == .sent && reversal.delivery == .sent)
        #expect((refund.lastAttemptAt ?? .distantPast) >= (reversal.lastAttemptAt ?? .distantFuture))
        #expect(try app.revokedCredits().isEmpty)
        #expect(try app.parties.backend.accountNow(user: "alice").owned.contains("com.iapsim.noads"))
    }
}

@Suite("--server-api in scripts and on the badge line")
struct ServerAPIModeSettingTests {
    @Test("`# backend: server-api` runs a script with the modern server; anything but server-api or receipt is refused at its line",
          arguments: ["server-api", "receipt", "modern", ""])
    func header(_ value: String) throws {
        do {
            let script = try Script.parse("# name: x\n# backend: \(value)\nlaunch alice\n", file: "t.iapsim")
            #expect(["server-api", "receipt"].contains(value), "accepted backend \(value)")
            #expect(script.serverAPIBackend == (value == "server-api"))
        } catch {
            #expect(!["server-api", "receipt"].contains(value), "\(error)")
            #expect("\(error)".hasPrefix("t.iapsim:2:"), "\(error)")
            #expect("\(error)".contains("is not a backend mode; give server-api"), "\(error)")
        }
    }

    @Test("the badge line says the backend is the Server API kind, beside StoreKit 2")
    func badge() throws {
        let app = try Harness(user: "alice", storeKit: .two, serverAPI: true)
        app.advance(0.5)
        #expect(app.screen().contains("backend: Server API · StoreKit 2"))
        let classic = try Harness(user: "alice")
        classic.advance(0.5)
        #expect(!classic.screen().contains("Server API"))
    }
}
