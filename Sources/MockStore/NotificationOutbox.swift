import AppleVocabulary
import Foundation
import GRDB
import IAPCore

/// One App Store Server Notification as the store's outbox keeps it: what it says, whether the built-in backend heard
/// it, and how its delivery to the `--notify` server goes (attempts on Apple's retry schedule).
public struct OutboxEntry: Sendable, Equatable {
    public enum Delivery: String, Sendable, Equatable {
        /// Written while no server was set to receive notifications (no `--notify`): kept for the record, never sent
        /// later (Apple sends only to the URL set when the event happens).
        case notSent = "not-sent"
        /// To be sent: `nextAttemptAt` on the store's clock.
        case pending
        case sent
        /// Every retry failed.
        case failed
    }

    public let notification: StoreNotification
    public var delivery: Delivery
    /// Attempts made so far: the first one and its retries.
    public var attempts: Int
    public var firstAttemptAt: Date?
    public var nextAttemptAt: Date?
    public var lastAttemptAt: Date?
    /// Why the last attempt failed ("HTTP 500", "connection refused").
    public var lastError: String?
    /// The body as first sent: a retry sends the same bytes, with the same `notificationUUID`.
    public var signedPayload: String?
    /// What a notification fault did to its delivery; nil when none did.
    public var detour: Detour? = nil
    /// Each attempt as it went, oldest first; nil in a file written before the store kept them.
    var attemptLog: [Attempt]? = nil
    /// What it carries, as the records stood when it was written, kept as JSON: read only by what signs it, not by the
    /// inspector's list or an attempt's record.
    var contentJSON: Data? = nil

    /// Nil when written before the store kept that, or by a store opened without its catalog.
    public var content: NotificationContent? {
        contentJSON.flatMap { try? JSONDecoder().decode(NotificationContent.self, from: $0) }
    }

    /// One attempt to deliver: when, and why the server did not take it (nil: it did).
    struct Attempt: Codable, Equatable {
        var at: Double
        var failure: String?
    }

    /// What a notification fault (`notification-…`) does to one notification's delivery, kept with it so that a
    /// relaunch goes on as it began.
    public enum Detour: String, Sendable, Equatable {
        /// Delivered twice, each attempt taken.
        case twice = "notification-twice"
        /// Held back until the next notification is delivered.
        case outOfOrder = "notification-out-of-order"
        /// Apple counts it delivered; the server never saw it.
        case lost = "notification-lost"
        /// Its first attempt comes late.
        case delayed = "notification-delayed"
    }

    /// Retries made so far (the first attempt is not one).
    public var retries: Int { max(attempts - 1, 0) }

    /// Each attempt so far, oldest first, with why it failed (nil: the server took it). A file written before the store
    /// kept each attempt kept the last failure only: there an earlier attempt is told at the time Apple's schedule made
    /// it, with that failure, or with none known when the last one went through.
    public var attemptHistory: [(at: Date, failure: String?)] {
        if let attemptLog { return attemptLog.map { (Date(timeIntervalSince1970: $0.at), $0.failure) } }
        guard let first = firstAttemptAt, attempts > 0 else { return [] }
        // Delivered twice: both attempts were taken.
        if detour == .twice, delivery == .sent { return [(first, nil), (lastAttemptAt ?? first, nil)] }
        return (0..<attempts).map { index in
            if index == attempts - 1 { return (lastAttemptAt ?? first, delivery == .sent ? nil : lastError ?? "") }
            // Such a file's store retried that many hours after the first attempt.
            let at = index == 0 ? first : first.addingTimeInterval(NotificationRetries.hours[index - 1] * 3_600)
            return (at, delivery == .sent ? "" : lastError ?? "")
        }
    }
}

/// Apple's retry schedule for a notification the server did not take (no 2xx answer): up to five retries, 1, 12, 24,
/// 48 and 72 hours after the attempt before. (Apple retries in production only, and sends a sandbox notification
/// once; iapsim's are sandbox-signed and retried, so that a team's server can be tried against its retries.)
public enum NotificationRetries {
    public static let hours: [Double] = [1, 12, 24, 48, 72]
    public static var count: Int { hours.count }

    /// When the next attempt is due after `attempts` failed ones, the last at `last`; nil when none is left.
    public static func next(afterFailed attempts: Int, last: Date) -> Date? {
        guard attempts >= 1, attempts <= hours.count else { return nil }
        return last.addingTimeInterval(hours[attempts - 1] * 3_600)
    }
}

/// How the store writes what it tells the app's server: whether a server was given to send it to, whether the built-in
/// backend is that server (`--server-api`), and which products are consumables (a refund of one is asked about first,
/// with CONSUMPTION_REQUEST).
public struct OutboxPolicy: Sendable {
    public var goesOut = false
    /// The built-in backend hears each notification through Apple's delivery (with its faults and retries), not at once.
    public var backendHearsDelivery = false
    /// What Apple asks the app's server about before it decides a customer's refund (CONSUMPTION_REQUEST): consumables
    /// and auto-renewable subscriptions.
    public var askedBeforeRefund: Set<String> = []
    /// The catalog by product id, which Apple's records need to write down what a notification carries.
    public var catalog: [String: Product] = [:]

    public init(goesOut: Bool = false, askedBeforeRefund: Set<String> = []) {
        self.goesOut = goesOut
        self.askedBeforeRefund = askedBeforeRefund
    }
}

extension StoreDatabase {
    static func outboxMigration(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE notificationOutbox (
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                uuid TEXT NOT NULL UNIQUE,
                type TEXT NOT NULL,
                subtype TEXT,
                transactionId TEXT,
                originalTransactionId TEXT,
                date DOUBLE NOT NULL,
                notification BLOB NOT NULL,
                backendDelivered INTEGER NOT NULL,
                delivery TEXT NOT NULL,
                attempts INTEGER NOT NULL DEFAULT 0,
                firstAttemptAt DOUBLE,
                nextAttemptAt DOUBLE,
                lastAttemptAt DOUBLE,
                lastError TEXT,
                signedPayload TEXT
            );
            CREATE INDEX notificationOutboxForBackend ON notificationOutbox(seq) WHERE backendDelivered = 0;
            CREATE INDEX notificationOutboxDue ON notificationOutbox(nextAttemptAt) WHERE delivery = 'pending';
            """)
    }

    /// Writes `notification` into the outbox inside the caller's database transaction, the one that made the change it
    /// tells of: a kill cannot keep the change and lose the notification, or the reverse.
    /// A notification made without a `uuid` is given one here, as Apple names each notification it sends.
    func enqueue(_ db: Database, _ notification: StoreNotification, knowing record: AppleTransaction? = nil) throws {
        let notification = notification.uuid.isEmpty ? notification.named(random.uuid()) : notification
        let goesOut = outbox.goesOut || outbox.backendHearsDelivery
        try db.cachedStatement(sql: """
            INSERT INTO notificationOutbox (uuid, type, subtype, transactionId, originalTransactionId, date, notification, backendDelivered,
                                            delivery, nextAttemptAt, content)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
                notification.uuid, notification.kind.rawValue, notification.subtype?.rawValue, notification.transactionId,
                notification.originalTransactionId, notification.date.timeIntervalSince1970, try JSONEncoder().encode(notification),
                !notification.concernsBuiltInBackend,
                (goesOut ? OutboxEntry.Delivery.pending : .notSent).rawValue,
                goesOut ? notification.date.timeIntervalSince1970 : nil,
                try NotificationContent.taken(db, notification, at: notification.date, catalog: outbox.catalog, knowing: record).map { try JSONEncoder().encode($0) },
            ])
    }

    /// Apple's question to the app's server about a customer's refund request (CONSUMPTION_REQUEST), for a consumable or
    /// an auto-renewable subscription, written in the decision's database transaction before the decision changes
    /// anything: it carries the charge as it stands, not yet refunded. Nothing when `id` names no paid, unrefunded charge.
    /// `customer`: the reason chosen on Apple's refund sheet; a refund a fault grants had none (OTHER).
    func askBeforeDeciding(_ db: Database, about id: String, because customer: ConsumptionRequestReason?, at date: Date) throws {
        guard let charge = try Self.charge(db, repeatedBy: id), let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT account, productId, COALESCE(originalTransactionId, id) AS original FROM storeTransaction
            WHERE id = ? AND state IN ('purchased', 'restored') AND cancellationDate IS NULL
            """), arguments: [charge]), outbox.askedBeforeRefund.contains(row["productId"] as String) else { return }
        var question = StoreNotification(.consumptionRequest, account: row["account"], productId: row["productId"], transactionId: charge,
                                         originalTransactionId: row["original"], date: date)
        question.refundRequestReason = customer ?? .OTHER
        try enqueue(db, question)
    }

    /// Apple's TEST notification, asked for through the App Store Server API, under the `uuid` its token names.
    public func enqueueTest(at date: Date, uuid: String) throws -> StoreNotification {
        let test = StoreNotification.test(at: date, uuid: uuid)
        try queue.writeTransaction { db in try enqueue(db, test) }
        return test
    }

    /// The next notifications the built-in backend has not heard yet, oldest first (one a kill interrupted included).
    /// `unsentOnly`: only those written while nothing went out, the rest being Apple's delivery's to make (`--server-api`).
    func notHeardByBackend(limit: Int, unsentOnly: Bool = false) throws -> [StoreNotification] {
        try queue.inDatabase { db in
            try Data.fetchAll(db.cachedStatement(sql: """
                SELECT notification FROM notificationOutbox INDEXED BY notificationOutboxForBackend WHERE backendDelivered = 0
                AND (? = 0 OR delivery = 'not-sent') ORDER BY seq LIMIT ?
                """), arguments: [unsentOnly, limit]).map { try JSONDecoder().decode(StoreNotification.self, from: $0) }
        }
    }

    func heardByBackend(_ uuids: [String]) throws {
        try queue.writeTransaction { db in
            for uuid in uuids {
                try db.cachedStatement(sql: "UPDATE notificationOutbox SET backendDelivered = 1 WHERE uuid = ?").execute(arguments: [uuid])
            }
        }
    }

    /// Notifications due to be sent by `now` on the store's clock, oldest first.
    public func dueNotifications(now: Date, limit: Int) throws -> [OutboxEntry] {
        try queue.inDatabase { db in
            try Row.fetchAll(db.cachedStatement(sql: """
                SELECT \(Self.outboxColumns) FROM notificationOutbox INDEXED BY notificationOutboxDue
                WHERE delivery = 'pending' AND nextAttemptAt <= ? ORDER BY seq LIMIT ?
                """), arguments: [now.timeIntervalSince1970, limit]).map(Self.outboxEntry)
        }
    }

    /// When the next notification waiting to be sent is due, if one is.
    public func nextNotificationDue() throws -> Date? {
        try queue.inDatabase { db in
            try Double.fetchOne(db.cachedStatement(sql: """
                SELECT MIN(nextAttemptAt) FROM notificationOutbox INDEXED BY notificationOutboxDue WHERE delivery = 'pending'
                """)).map(Date.init(timeIntervalSince1970:))
        }
    }

    /// Writes down one attempt to send: sent on a 2xx answer (`failure` nil), else the next retry on Apple's schedule, or
    /// failed when none is left. The signed body is kept from the first attempt on. Answers the entry as it now is.
    /// `again`: the second delivery of one delivered twice (`notification-twice`), written down as one more attempt.
    @discardableResult
    public func recordAttempt(_ uuid: String, signedPayload: String?, failure: String?, at date: Date, again: Bool = false) throws -> OutboxEntry? {
        try queue.writeTransaction { db in
            guard var entry = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(Self.outboxColumns) FROM notificationOutbox WHERE uuid = ?"),
                                               arguments: [uuid]).map(Self.outboxEntry),
                  entry.delivery == (again ? .sent : .pending) else { return nil }
            // A file from before the store kept each attempt goes on from what it could tell of them.
            let earlier = entry.attemptLog ?? entry.attemptHistory.map { OutboxEntry.Attempt(at: $0.at.timeIntervalSince1970, failure: $0.failure) }
            entry.attempts += 1
            let first = entry.firstAttemptAt ?? date
            entry.firstAttemptAt = first
            entry.lastAttemptAt = date
            entry.lastError = failure
            entry.signedPayload = entry.signedPayload ?? signedPayload
            entry.attemptLog = earlier + [OutboxEntry.Attempt(at: date.timeIntervalSince1970, failure: failure)]
            if failure == nil {
                entry.delivery = .sent
                entry.nextAttemptAt = nil
            } else if let next = NotificationRetries.next(afterFailed: entry.attempts, last: date) {
                entry.nextAttemptAt = next
            } else {
                entry.delivery = .failed
                entry.nextAttemptAt = nil
            }
            let time = { (date: Date?) in date?.timeIntervalSince1970 }
            try db.cachedStatement(sql: """
                UPDATE notificationOutbox SET delivery = ?, attempts = ?, firstAttemptAt = ?, nextAttemptAt = ?, lastAttemptAt = ?, lastError = ?,
                signedPayload = ?, attemptLog = ? WHERE uuid = ?
                """).execute(arguments: [entry.delivery.rawValue, entry.attempts, time(entry.firstAttemptAt), time(entry.nextAttemptAt),
                                         time(entry.lastAttemptAt), entry.lastError, entry.signedPayload,
                                         try JSONEncoder().encode(entry.attemptLog), uuid])
            if failure == nil, !again { try Self.releaseHeldBack(db, passedBy: uuid, at: date) }
            return entry
        }
    }

    /// Keeps the bytes a notification was first signed with, where nothing had signed it yet (Notification History read
    /// before any attempt to send it): Apple hands out what it signed, the same at every read and attempt.
    public func keepSigned(_ payloads: [(uuid: String, signedPayload: String)]) throws {
        try queue.writeTransaction { db in
            for payload in payloads {
                try db.cachedStatement(sql: "UPDATE notificationOutbox SET signedPayload = ? WHERE uuid = ? AND signedPayload IS NULL")
                    .execute(arguments: [payload.signedPayload, payload.uuid])
            }
        }
    }

    /// Notification History: what the store told between `start` (included) and `end`, in the order it told it, after the
    /// one numbered `after`; `limit` of them, and whether more follow. `keep` chooses among those of the right type.
    public func notificationHistory(from start: Date, to end: Date, kind: String?, subtype: String?,
                                    onlyFailures: Bool, after: Int64, limit: Int, keep: (StoreNotification) -> Bool)
        throws -> (entries: [(seq: Int64, entry: OutboxEntry)], hasMore: Bool) {
        try queue.inDatabase { db in
            var sql = "SELECT seq, \(Self.outboxColumns) FROM notificationOutbox WHERE seq > ? AND date >= ? AND date < ?"
            var arguments: StatementArguments = [after, start.timeIntervalSince1970, end.timeIntervalSince1970]
            if let kind {
                sql += " AND type = ?"
                _ = arguments.append(contentsOf: [kind])
            }
            if let subtype {
                sql += " AND subtype = ?"
                _ = arguments.append(contentsOf: [subtype])
            }
            // What has not reached the server: failed, still retried, or never sent.
            if onlyFailures { sql += " AND delivery <> 'sent'" }
            let rows = try Row.fetchCursor(db, sql: sql + " ORDER BY seq", arguments: arguments)
            var entries: [(seq: Int64, entry: OutboxEntry)] = []
            while let row = try rows.next() {
                let entry = try Self.outboxEntry(row)
                guard keep(entry.notification) else { continue }
                if entries.count == limit { return (entries, true) }
                entries.append((row["seq"], entry))
            }
            return (entries, false)
        }
    }

    /// The notification with this `notificationUUID`, if the store wrote one.
    public func outboxEntry(uuid: String) throws -> OutboxEntry? {
        try queue.inDatabase { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT \(Self.outboxColumns) FROM notificationOutbox WHERE uuid = ?"), arguments: [uuid])
                .map(Self.outboxEntry)
        }
    }

    /// The latest `limit` notifications, newest first: the inspector's list.
    public func recentNotifications(limit: Int) throws -> [OutboxEntry] {
        try queue.inDatabase { db in
            try Row.fetchAll(db.cachedStatement(sql: "SELECT \(Self.outboxColumns) FROM notificationOutbox ORDER BY seq DESC LIMIT ?"),
                             arguments: [limit]).map(Self.outboxEntry)
        }
    }

    static let outboxColumns = "notification, delivery, attempts, firstAttemptAt, nextAttemptAt, lastAttemptAt, lastError, signedPayload, detour, attemptLog, content"

    static func outboxEntry(_ row: Row) throws -> OutboxEntry {
        let date = { (name: String) in row.real(name).map(Date.init(timeIntervalSince1970:)) }
        return OutboxEntry(notification: try JSONDecoder().decode(StoreNotification.self, from: row["notification"] as Data),
                           delivery: OutboxEntry.Delivery(rawValue: row["delivery"]) ?? .failed, attempts: row["attempts"],
                           firstAttemptAt: date("firstAttemptAt"), nextAttemptAt: date("nextAttemptAt"), lastAttemptAt: date("lastAttemptAt"),
                           lastError: row.text("lastError"), signedPayload: row.text("signedPayload"),
                           detour: row.text("detour").flatMap(OutboxEntry.Detour.init(rawValue:)),
                           attemptLog: try (row["attemptLog"] as Data?).map { try JSONDecoder().decode([OutboxEntry.Attempt].self, from: $0) },
                           contentJSON: row["content"])
    }
}
