import Foundation
@testable import MockStore
import Testing

/// What Notification History and the test notification's status tell of each attempt to deliver a notification.
@Suite("Notification delivery attempts, each as it went")
struct NotificationAttemptTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// A store that sends its notifications, with a TEST notification written at `start`; its files go with `scratch`.
    private func storeWithTest(in scratch: Scratch) throws -> (StoreDatabase, uuid: String) {
        let store = try StoreDatabase(path: scratch.directory.appendingPathComponent("store.sqlite").path)
        store.outbox.goesOut = true
        return (store, try store.enqueueTest(at: Self.start, uuid: UUID().uuidString.lowercased()).uuid)
    }

    @Test("a notification taken at its third attempt tells each earlier attempt's own failure and time, not OTHER at the schedule's hours")
    func eachAttemptKept() throws {
        let scratch = Scratch()
        let (store, uuid) = try storeWithTest(in: scratch)
        defer { try? store.close() }
        let start = Self.start
        // The first attempt a little after the event; the retries late, as a machine asleep makes them.
        let tried: [(at: Date, failure: String?)] = [(start.addingTimeInterval(2), "HTTP 500"), (start.addingTimeInterval(3_700), "timed out"),
                                                      (start.addingTimeInterval(50_000), nil)]
        for attempt in tried {
            try store.recordAttempt(uuid, signedPayload: "body", failure: attempt.failure, at: attempt.at)
        }
        let entry = try #require(try store.outboxEntry(uuid: uuid))
        #expect(entry.delivery == .sent)
        #expect(entry.attemptHistory.map(\.failure) == tried.map(\.failure))
        #expect(entry.attemptHistory.map(\.at) == tried.map(\.at))
    }

    @Test("an attempt made before the store kept each one is told as it was before (its failure, at its time), then each new one as it went")
    func earlierAttemptsFromBefore() throws {
        let scratch = Scratch()
        let (store, uuid) = try storeWithTest(in: scratch)
        defer { try? store.close() }
        let start = Self.start
        try store.recordAttempt(uuid, signedPayload: "body", failure: "HTTP 503", at: start)
        // As a file from before it kept them has it: the last failure only.
        try store.queue.write { db in try db.execute(sql: "UPDATE notificationOutbox SET attemptLog = NULL") }
        try store.recordAttempt(uuid, signedPayload: "body", failure: "HTTP 500", at: start.addingTimeInterval(3_700))
        let entry = try #require(try store.outboxEntry(uuid: uuid))
        #expect(entry.attemptHistory.map(\.failure) == ["HTTP 503", "HTTP 500"])
        #expect(entry.attemptHistory.map(\.at) == [start, start.addingTimeInterval(3_700)])
    }
}
