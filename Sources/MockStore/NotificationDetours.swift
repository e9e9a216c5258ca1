import Foundation
import GRDB

/// Notification faults (`notification-twice`, `-out-of-order`, `-lost`, `-delayed`): what a team's server must survive
/// of Apple's delivery, each written on the outbox entry it befell, so the inspector, Notification History and a
/// relaunch all see the same.
extension StoreDatabase {
    /// How long a notification held back waits for a later one to pass it, at most.
    public static let heldBackAtMost: TimeInterval = 3_600

    static func detourMigration(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE notificationOutbox ADD COLUMN detour TEXT")
    }

    /// Each attempt to deliver, as it went (JSON): the history's `sendAttempts`.
    static func attemptLogMigration(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE notificationOutbox ADD COLUMN attemptLog BLOB")
    }

    /// What each notification carries as the records stood when it was written (JSON of `NotificationContent`).
    static func contentMigration(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE notificationOutbox ADD COLUMN content BLOB")
    }

    /// Sets `detour` on a notification not yet attempted: held back or delayed ones are due later (`delay` seconds, or
    /// until a later one is delivered), the others go now. Answers the entry as it now is.
    @discardableResult
    public func setDetour(_ detour: OutboxEntry.Detour, on uuid: String, delay: TimeInterval = 0, at now: Date) throws -> OutboxEntry? {
        try queue.writeTransaction { db in
            let later: TimeInterval? = switch detour {
            case .outOfOrder: Self.heldBackAtMost
            case .delayed: delay
            case .twice, .lost: nil
            }
            try db.cachedStatement(sql: """
                UPDATE notificationOutbox SET detour = ?, nextAttemptAt = COALESCE(?, nextAttemptAt)
                WHERE uuid = ? AND delivery = 'pending' AND attempts = 0 AND detour IS NULL
                """).execute(arguments: [detour.rawValue, later.map { now.addingTimeInterval($0).timeIntervalSince1970 }, uuid])
            return try Row.fetchOne(db.cachedStatement(sql: "SELECT \(Self.outboxColumns) FROM notificationOutbox WHERE uuid = ?"),
                                    arguments: [uuid]).map(Self.outboxEntry)
        }
    }

    /// Whether a notification is held back now, waiting for a later one to pass it.
    public func isHoldingBack() throws -> Bool {
        try queue.inDatabase { db in
            try Bool.fetchOne(db.cachedStatement(sql: """
                SELECT EXISTS (SELECT 1 FROM notificationOutbox WHERE delivery = 'pending' AND attempts = 0 AND detour = 'notification-out-of-order')
                """)) ?? false
        }
    }

    /// A notification held back goes as soon as one written after it has been delivered.
    static func releaseHeldBack(_ db: Database, passedBy uuid: String, at now: Date) throws {
        try db.cachedStatement(sql: """
            UPDATE notificationOutbox SET nextAttemptAt = ?
            WHERE delivery = 'pending' AND attempts = 0 AND detour = 'notification-out-of-order' AND nextAttemptAt > ?
            AND seq < (SELECT seq FROM notificationOutbox WHERE uuid = ?)
            """).execute(arguments: [now.timeIntervalSince1970, now.timeIntervalSince1970, uuid])
    }
}
