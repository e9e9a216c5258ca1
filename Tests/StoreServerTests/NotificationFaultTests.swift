import AppleVocabulary
import AppleWire
import Foundation
import IAPCore
import JWTKit
import MockStore
import Testing

/// Notification faults a team's server must survive (`--fault notification-…`): delivered twice, out of order, lost
/// (then found only in Notification History), delayed past a later one; the inspector tells each attempt.
@Suite("Notification faults: twice, out of order, lost, delayed", .serialized)
struct NotificationFaultTests {
    static let coins = "com.iapsim.coins.60", noads = "com.iapsim.noads"

    /// What the server received, by type and transaction, in the order it came.
    private func received(_ app: NotifyingApp, _ receiver: NotificationReceiver) async throws -> [String] {
        let verifier = try X5CVerifier(rootCertificates: [try app.rootPEM()])
        var told: [String] = []
        for body in receiver.received {
            let payload = try await verifier.verifyJWS(body.signedPayload, as: NotificationPayload.self)
            var transactionId = "-"
            if let signed = payload.data?.signedTransactionInfo {
                transactionId = try await verifier.verifyJWS(signed, as: JWSTransaction.self).transactionId
            }
            told.append(payload.notificationType + " " + transactionId)
        }
        return told
    }

    private func started() async throws -> (NotifyingApp, NotificationReceiver) {
        let receiver = NotificationReceiver()
        try await receiver.start()
        let app = try NotifyingApp(receiver: receiver)
        app.session.advance(0.5)
        return (app, receiver)
    }

    @Test("notification-twice: the server gets the same notificationUUID and bytes twice; the inspector and the history tell both attempts")
    func twice() async throws {
        let (app, receiver) = try await started()
        defer { receiver.stop() }
        app.session.set(.notificationTwice, FaultArm(once: true))
        app.buy(Self.coins)
        try await app.pump { receiver.received.count >= 2 && app.rows.first?.contains("sent twice") == true }
        #expect(receiver.received.count == 2)
        #expect(receiver.received[0].signedPayload == receiver.received[1].signedPayload)
        #expect(app.rows == ["ONE_TIME_CHARGE tx 1000000001 · sent twice (notification-twice)"])
        let entry = try #require(try app.session.parties.store.database.recentNotifications(limit: 1).first)
        #expect(entry.attemptHistory.map(\.failure) == [nil, nil])
        #expect(app.timeline.filter { $0.contains("Apple → server: ONE_TIME_CHARGE") }.count == 2)
        // Once: the next one goes once.
        app.buy(Self.noads)
        try await app.pump { receiver.received.count >= 3 }
        try await app.idle(0.2)
        #expect(receiver.received.count == 3)
    }

    @Test("notification-lost: the server never sees it, Apple counts it sent; Notification History has it")
    func lost() async throws {
        let (app, receiver) = try await started()
        defer { receiver.stop() }
        app.session.set(.notificationLost, FaultArm(once: true))
        app.buy(Self.coins)
        app.buy(Self.noads)
        try await app.pump { receiver.received.count >= 1 && app.rows.count == 2 && app.rows.allSatisfy { !$0.hasSuffix("sending…") } }
        try await app.idle(0.2)
        #expect(try await received(app, receiver) == ["ONE_TIME_CHARGE 1000000002"])
        #expect(app.rows.first == "ONE_TIME_CHARGE tx 1000000001 · lost on the way: Apple counts it sent, only Notification History has it (notification-lost)")
        let history = try app.session.parties.store.database.notificationHistory(
            from: .distantPast, to: .distantFuture, kind: nil, subtype: nil, onlyFailures: false, after: 0, limit: 20, keep: { _ in true })
        #expect(history.entries.map { $0.entry.notification.transactionId } == ["1000000001", "1000000002"])
        #expect(history.entries.first?.entry.attemptHistory.map(\.failure) == [nil])
    }

    @Test("notification-out-of-order: one is held back and reaches the server after the next")
    func outOfOrder() async throws {
        let (app, receiver) = try await started()
        defer { receiver.stop() }
        app.session.set(.notificationOutOfOrder, FaultArm(once: true))
        app.buy(Self.coins)
        try await app.pump { app.rows.first?.contains("held back") == true }
        try await app.idle(0.2)
        #expect(receiver.received.isEmpty)
        app.buy(Self.noads)
        try await app.pump { receiver.received.count >= 2 && app.rows.allSatisfy { $0.hasSuffix("· sent") } }
        #expect(try await received(app, receiver) == ["ONE_TIME_CHARGE 1000000002", "ONE_TIME_CHARGE 1000000001"])
        #expect(app.rows == ["ONE_TIME_CHARGE tx 1000000001 · sent", "ONE_TIME_CHARGE tx 1000000002 · sent"])
    }

    @Test("notification-out-of-order with nothing after it: it goes an hour later on the store's clock")
    func heldBackAnHourAtMost() async throws {
        let (app, receiver) = try await started()
        defer { receiver.stop() }
        app.session.set(.notificationOutOfOrder, FaultArm(once: true))
        app.buy(Self.coins)
        try await app.pump { app.rows.first?.contains("held back") == true }
        app.session.advance(StoreDatabase.heldBackAtMost + 1)
        try await app.pump { receiver.received.count >= 1 }
        #expect(try await received(app, receiver) == ["ONE_TIME_CHARGE 1000000001"])
    }

    @Test("notification-delayed=60: a later notification passes it; it comes 60 s later on the store's clock")
    func delayed() async throws {
        let (app, receiver) = try await started()
        defer { receiver.stop() }
        app.session.set(.notificationDelayed, FaultArm(value: "60", once: true))
        app.buy(Self.coins)
        try await app.pump { app.rows.first?.contains("delayed to") == true }
        app.buy(Self.noads)
        try await app.pump { receiver.received.count >= 1 }
        try await app.idle(0.2)
        #expect(try await received(app, receiver) == ["ONE_TIME_CHARGE 1000000002"])
        app.session.advance(60)
        try await app.pump { receiver.received.count >= 2 && app.rows.first?.hasSuffix("· sent") == true }
        #expect(try await received(app, receiver) == ["ONE_TIME_CHARGE 1000000002", "ONE_TIME_CHARGE 1000000001"])
        #expect(app.rows.first == "ONE_TIME_CHARGE tx 1000000001 · sent")
    }
}
