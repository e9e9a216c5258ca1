import AppleReceiptFormat
import AppleWire
import Foundation
import IAPCore
import MockStore
import StoreSigning

/// Sends the store's outbox to the server given with `--notify`, as Apple sends App Store Server Notifications V2:
/// each signed and POSTed as `{"signedPayload": JWS}`, one the server refuses retried on Apple's schedule, on the
/// store's clock. The outbox is read and written on the parties' thread; signing and the HTTP exchange happen off it,
/// so a slow server never holds a key press up.
public final class NotificationSender: Sendable {
    public let url: URL
    private let desk: Confined<OutboxDesk>
    private let wakeups: AsyncStream<Void>.Continuation
    private let task: Task<Void, Never>
    /// How many notifications are taken off the outbox at a time.
    static let batch = 16

    /// Call on the parties' thread, once the parties are open. `onAttempt` is told there of each attempt as it ended.
    public init(url: URL, store: MockPaymentQueue, scheduler: Scheduler, thread: PartyThread,
                transport: NotificationTransport = HTTPNotificationTransport(), onAttempt: @escaping (OutboxEntry) -> Void = { _ in }) throws {
        let signer = try AppleSigner(StoreCertificates.of(store.database))
        let (stream, wakeups) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let desk = Confined(value: OutboxDesk(store: store, records: store.records,
                                              scheduler: scheduler, wake: { wakeups.yield() }, onAttempt: onAttempt))
        store.onOutboxWritten = { wakeups.yield() }
        self.url = url
        self.desk = desk
        self.wakeups = wakeups
        task = Task.detached {
            await Self.run(stream, desk: desk, thread: thread, signer: signer, transport: transport, url: url)
        }
        // What a kill left unsent, or a retry that came due while the app was closed, goes first.
        wakeups.yield()
    }

    /// Apple's TEST notification (asked for through the App Store Server API), sent as any other.
    /// Call on the parties' thread.
    public func sendTest(uuid: String) {
        desk.value.enqueueTest(uuid: uuid)
    }

    /// Stops sending; what is left waits in the outbox for the next sender. Call on the parties' thread, before the
    /// parties close.
    public func stop() {
        desk.value.stopped = true
        desk.value.store.onOutboxWritten = {}
        wakeups.finish()
        task.cancel()
    }

    private static func run(_ wakeups: AsyncStream<Void>, desk: Confined<OutboxDesk>, thread: PartyThread, signer: AppleSigner,
                            transport: NotificationTransport, url: URL) async {
        for await _ in wakeups {
            var more = true
            while more, !Task.isCancelled {
                let due: [OutgoingNotification] = await thread.perform { answer in answer(desk.value.due(limit: batch)) }
                more = due.count == batch
                for item in due where !Task.isCancelled {
                    var signed: String?
                    var body = Data()
                    let failure: String?
                    do {
                        signed = try await item.signedPayload(by: signer)
                        body = try JSONEncoder().encode(SignedNotificationBody(signedPayload: signed ?? ""))
                        // Lost on the way: something between answered for the server, which never sees it.
                        failure = item.detour == .lost ? nil : await transport.post(body, to: url)
                    } catch {
                        failure = "cannot sign: \(error)"
                    }
                    await thread.perform { answer in
                        desk.value.record(item.uuid, signed: signed, failure: failure)
                        answer(())
                    }
                    // Delivered twice: the same bytes again once the first was taken; one not taken changes nothing,
                    // the notification having reached the server already.
                    if item.detour == .twice, failure == nil, await transport.post(body, to: url) == nil {
                        await thread.perform { answer in
                            desk.value.record(item.uuid, signed: signed, failure: nil, again: true)
                            answer(())
                        }
                    }
                }
            }
        }
    }
}

/// The sender's hands on the parties' thread: takes what is due from the store's outbox, writes each attempt down and
/// sets a timer of the store's clock for the next retry.
final class OutboxDesk {
    let store: MockPaymentQueue
    let records: AppleRecords
    let scheduler: Scheduler
    let wake: @Sendable () -> Void
    let onAttempt: (OutboxEntry) -> Void
    /// Set when the sender stops: a job already handed to the parties' thread then touches nothing.
    var stopped = false
    private let timer = SoonestTimer()

    init(store: MockPaymentQueue, records: AppleRecords, scheduler: Scheduler, wake: @escaping @Sendable () -> Void,
         onAttempt: @escaping (OutboxEntry) -> Void) {
        self.store = store
        self.records = records
        self.scheduler = scheduler
        self.wake = wake
        self.onAttempt = onAttempt
    }

    func due(limit: Int) -> [OutgoingNotification] {
        guard !stopped else { return [] }
        let entries = store.takeDueNotifications(limit: limit)
        if entries.isEmpty { scheduleNext() }
        return entries.map { OutgoingNotification($0, records: records, now: scheduler.now) }
    }

    func record(_ uuid: String, signed: String?, failure: String?, again: Bool = false) {
        guard !stopped,
              let entry = attempt({ try store.database.recordAttempt(uuid, signedPayload: signed, failure: failure, at: scheduler.now, again: again) })
                ?? nil
        else { return }
        if entry.delivery == .pending { scheduleNext() }
        // A delivery may have let one held back go (notification-out-of-order): the sender looks again.
        else if failure == nil, !again { wake() }
        onAttempt(entry)
    }

    func enqueueTest(uuid: String) {
        guard !stopped, attempt({ try store.database.enqueueTest(at: scheduler.now, uuid: uuid) }) != nil else { return }
        wake()
    }

    /// The next retry is due later on the store's clock: one of its timers wakes the sender then, so a skipped or fast
    /// clock brings the retry as much sooner as it brings a renewal.
    private func scheduleNext() {
        guard let next = attempt({ try store.database.nextNotificationDue() }) ?? nil else { return }
        timer.set(next, on: scheduler) { [weak self] _ in self?.wake() }
    }

    private func attempt<T>(_ work: () throws -> T) -> T? {
        do {
            return try work()
        } catch {
            store.onError("\(error)")
            return nil
        }
    }
}
