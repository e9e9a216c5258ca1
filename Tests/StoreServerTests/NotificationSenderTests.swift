import AppleReceiptFormat
import AppleVocabulary
import AppleWire
import Foundation
import IAPApp
import IAPCore
import IAPUI
import JWTKit
import MockStore
import StoreServer
import StoreSigning
import Testing

private let catalog = try! CatalogLoader.load(
    path: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("assets/catalog.json").path)

/// The app on a virtual clock with `--notify` pointed at a receiver of the test's own. The test's task plays the
/// parties' thread: it runs the sender's jobs between its own steps, and sleeps (never blocks) while the sender works.
final class NotifyingApp {
    let session: AppSession
    let thread = PartyThread()
    let receiver: NotificationReceiver
    private(set) var sender: NotificationSender?
    private let path = FileManager.default.temporaryDirectory.appendingPathComponent("iapsim-notify-\(UUID().uuidString)").path

    init(receiver: NotificationReceiver, sending: Bool = true) throws {
        self.receiver = receiver
        session = try AppSession(directory: DataDirectory(path: path), catalog: catalog, user: "alice", notifying: true)
        if sending { try send() }
    }

    deinit {
        sender?.stop()
        try? FileManager.default.removeItem(atPath: path)
    }

    /// A sender on the session's parties, as the app starts one at launch.
    func send() throws {
        sender?.stop()
        sender = try NotificationSender(url: receiver.url, store: session.parties.store, scheduler: session.timers,
                                        thread: thread, onAttempt: { [weak session] in session?.note($0) })
    }

    /// A kill: the app's objects dropped mid-flight, the sender with them, then a launch on the same files.
    func relaunch() throws {
        sender?.stop()
        sender = nil
        try session.relaunch()
    }

    func buy(_ productId: String) {
        let index = catalog.firstIndex { $0.id == productId }!
        for _ in 0..<catalog.count { session.press(.up) }
        for _ in 0..<index { session.press(.down) }
        session.press(.enter)
        session.advance(5)
        session.press(.escape)
    }

    /// Runs the sender's jobs until `done`. The two minutes of wall clock only keep a broken sender from hanging the run:
    /// while the other suites' synchronous tests fill both threads of a 2-core machine's pool, each of the sender's
    /// steps waits its turn behind them.
    func pump(until done: () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(120)
        while !done(), Date() < deadline {
            thread.runJobs()
            try await Task.sleep(for: .milliseconds(5))
        }
        thread.runJobs()
    }

    /// Lets the sender work for a while without waiting for anything in particular (to see that nothing more comes).
    func idle(_ seconds: Double) async throws {
        let until = Date().addingTimeInterval(seconds)
        try await pump { Date() >= until }
    }

    var rows: [String] { session.inspectorView().notifications.map { $0.row(.en) } }
    var timeline: [String] { session.inspectorView().timeline.map(\.text) }

    func rootPEM() throws -> String {
        try StoreCertificates.pem(StoreCertificates.of(session.parties.store.database).root)
    }
}

@Suite("App Store Server Notifications V2 to --notify", .serialized)
struct NotificationSenderTests {
    static let monthly = "com.iapsim.vip.monthly", coins = "com.iapsim.coins.60"

    @Test("a purchase, a subscription and its renewal reach the server as ONE_TIME_CHARGE, SUBSCRIBED and DID_RENEW, signed by the root's chain")
    func purchaseAndRenewal() async throws {
        let receiver = NotificationReceiver()
        try await receiver.start()
        defer { receiver.stop() }
        let app = try NotifyingApp(receiver: receiver)
        app.session.advance(0.5)
        app.buy(Self.coins)
        app.buy(Self.monthly)
        try await app.pump { receiver.received.count >= 2 }
        let due = try #require(app.session.parties.store.nextSubscriptionEvent())
        app.session.advance(due.timeIntervalSince(app.session.timers.now) + 5)
        try await app.pump { app.rows.count == 3 && app.rows.allSatisfy { $0.hasSuffix("· sent") } }

        let verifier = try X5CVerifier(rootCertificates: [try app.rootPEM()])
        var told: [String] = []
        var transactions: [JWSTransaction] = []
        for received in receiver.received {
            #expect(received.contentType == "application/json")
            let payload = try await verifier.verifyJWS(received.signedPayload, as: NotificationPayload.self)
            told.append(payload.notificationType + (payload.subtype.map { "/" + $0 } ?? ""))
            #expect(payload.data?.environment == "Sandbox")
            #expect(payload.data?.bundleId == Receipt.bundleId)
            transactions.append(try await verifier.verifyJWS(try #require(payload.data?.signedTransactionInfo), as: JWSTransaction.self))
            if payload.notificationType != "ONE_TIME_CHARGE" {
                let renewal = try await verifier.verifyJWS(try #require(payload.data?.signedRenewalInfo), as: JWSRenewalInfo.self)
                #expect(renewal.productId == Self.monthly)
                #expect(payload.data?.status == 1)
            }
        }
        #expect(told == ["ONE_TIME_CHARGE", "SUBSCRIBED/INITIAL_BUY", "DID_RENEW"])
        #expect(transactions.map(\.productId) == [Self.coins, Self.monthly, Self.monthly])
        #expect(transactions.map(\.transactionReason) == ["PURCHASE", "PURCHASE", "RENEWAL"])
        #expect(app.rows.count == 3)
        #expect(app.rows.allSatisfy { $0.hasSuffix("· sent") })
        #expect(app.timeline.filter { $0.hasPrefix("Apple → server:") && $0.hasSuffix(" sent") }.count == 3)
        // A JWS altered by one character is refused.
        var tampered = Array(receiver.received[0].signedPayload)
        tampered[tampered.count / 2] = tampered[tampered.count / 2] == "A" ? "B" : "A"
        await #expect(throws: (any Error).self) { try await verifier.verifyJWS(String(tampered), as: NotificationPayload.self) }
    }

    @Test("billing that fails for good reaches the server as Apple tells it: DID_FAIL_TO_RENEW/GRACE_PERIOD once, GRACE_PERIOD_EXPIRED, then EXPIRED/BILLING_RETRY, with statuses 4, 3 and 2")
    func billingFailsForGood() async throws {
        let receiver = NotificationReceiver()
        try await receiver.start()
        defer { receiver.stop() }
        let app = try NotifyingApp(receiver: receiver)
        app.session.set(.billingFails, FaultArm(value: "99"))
        app.session.advance(0.5)
        app.buy(Self.monthly)
        try await app.pump { receiver.received.count >= 1 }
        let expiry = try #require(app.session.parties.store.nextSubscriptionEvent())
        // The first failed charge, a day into the grace period, past its end, and past the end of Apple's retries.
        for (days, count) in [(1.0, 2), (17, 3), (61, 4)] {
            app.session.advance(expiry.addingTimeInterval(days * 86_400).timeIntervalSince(app.session.timers.now))
            try await app.pump { receiver.received.count >= count }
        }
        try await app.idle(0.2)
        let verifier = try X5CVerifier(rootCertificates: [try app.rootPEM()])
        var told: [String] = []
        for received in receiver.received {
            let payload = try await verifier.verifyJWS(received.signedPayload, as: NotificationPayload.self)
            told.append(payload.notificationType + (payload.subtype.map { "/" + $0 } ?? "") + " " + (payload.data?.status.map(String.init) ?? "-"))
        }
        #expect(told == ["SUBSCRIBED/INITIAL_BUY 1", "DID_FAIL_TO_RENEW/GRACE_PERIOD 4", "GRACE_PERIOD_EXPIRED 3", "EXPIRED/BILLING_RETRY 2"])
    }

    @Test("a server answering 500 then 200 sees one notificationUUID twice, an hour apart on the store's clock; the inspector counts the retry")
    func retriedAsApple() async throws {
        let receiver = NotificationReceiver(answers: [500])
        try await receiver.start()
        defer { receiver.stop() }
        let app = try NotifyingApp(receiver: receiver)
        app.session.advance(0.5)
        app.buy(Self.coins)
        try await app.pump { app.rows.first?.contains("retry 1/5 at") == true }
        #expect(receiver.received.count == 1)
        #expect(app.rows.first?.contains("(HTTP 500)") == true)
        #expect(app.timeline.contains { $0.contains("ONE_TIME_CHARGE retry 1/5 at") })
        // Not before Apple's first retry, an hour after the first attempt.
        app.session.advance(3_500)
        try await app.idle(0.2)
        #expect(receiver.received.count == 1)
        app.session.advance(200)
        try await app.pump { receiver.received.count >= 2 && app.rows.first?.hasSuffix("sent after 1 retry") == true }
        let payloads = receiver.received.map(\.signedPayload)
        #expect(payloads.count == 2)
        #expect(payloads[0] == payloads[1])
        let uuids = try await payloads.asyncMap { try await X5CVerifier(rootCertificates: [try app.rootPEM()]).verifyJWS($0, as: NotificationPayload.self).notificationUUID }
        #expect(Set(uuids).count == 1)
        #expect(app.rows.first?.hasSuffix("sent after 1 retry") == true)
    }

    @Test("a server that never takes it gets Apple's five retries (1, 12, 24, 48 and 72 hours, each after the attempt before), then it is failed")
    func failedAfterFiveRetries() async throws {
        let receiver = NotificationReceiver(answers: Array(repeating: 503, count: 10))
        try await receiver.start()
        defer { receiver.stop() }
        let app = try NotifyingApp(receiver: receiver)
        app.session.advance(0.5)
        app.buy(Self.coins)
        try await app.pump { receiver.received.count == 1 && app.rows.first?.contains("retry 1/5") == true }
        for (retry, hours) in [(1, 1.0), (2, 12), (3, 24), (4, 48), (5, 72)] {
            let last = try #require(try app.session.parties.store.database.recentNotifications(limit: 1).first?.lastAttemptAt)
            // Not yet an hour short of it.
            app.session.advance(last.addingTimeInterval(hours * 3_600).timeIntervalSince(app.session.timers.now) - 3_600)
            try await app.idle(0.1)
            #expect(receiver.received.count == retry, "retry \(retry) came early")
            app.session.advance(3_601)
            try await app.pump { receiver.received.count == retry + 1 && !(app.rows.first?.contains("retry \(retry)/5") ?? true) }
        }
        #expect(receiver.received.count == 6)
        let attempts = try #require(try app.session.parties.store.database.recentNotifications(limit: 1).first).attemptHistory.map(\.at)
        let gaps = zip(attempts.dropFirst(), attempts).map { ($0.timeIntervalSince($1) / 3_600).rounded() }
        #expect(gaps == [1, 12, 24, 48, 72])
        #expect(app.rows.first?.hasSuffix("failed after 5 retries (HTTP 503)") == true)
        app.session.advance(30 * 86_400)
        try await app.idle(0.2)
        #expect(receiver.received.count == 6)
    }

    @Test("a notification written before a kill, never sent, is sent after the relaunch, once")
    func sentOnceAfterAKill() async throws {
        let receiver = NotificationReceiver()
        try await receiver.start()
        defer { receiver.stop() }
        let app = try NotifyingApp(receiver: receiver, sending: false)
        app.session.advance(0.5)
        app.buy(Self.coins)
        #expect(app.rows == ["ONE_TIME_CHARGE tx 1000000001 · sending…"])
        try app.relaunch()
        try app.send()
        try await app.pump { receiver.received.count >= 1 }
        try await app.idle(0.3)
        try app.relaunch()
        try app.send()
        try await app.idle(0.3)
        #expect(receiver.received.count == 1)
        #expect(app.rows == ["ONE_TIME_CHARGE tx 1000000001 · sent"])
    }

    @Test("Apple's TEST notification, asked for through the server API, goes out like the rest")
    func testNotification() async throws {
        let receiver = NotificationReceiver()
        try await receiver.start()
        defer { receiver.stop() }
        let app = try NotifyingApp(receiver: receiver)
        app.sender?.sendTest(uuid: "8a0f5a3e-2b6d-4c1e-9f7a-3d2c1b0a9e8f")
        try await app.pump { receiver.received.count >= 1 }
        let payload = try await X5CVerifier(rootCertificates: [try app.rootPEM()])
            .verifyJWS(try #require(receiver.received.first).signedPayload, as: NotificationPayload.self)
        #expect(payload.notificationType == "TEST")
        #expect(payload.data?.signedTransactionInfo == nil)
    }
}

extension Array {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var mapped: [T] = []
        for element in self { mapped.append(try await transform(element)) }
        return mapped
    }
}
