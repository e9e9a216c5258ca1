import AppleVocabulary
import Foundation
import GRDB

/// Family Sharing (A4): the Apple IDs of one family own each other's family-shareable purchases. Apple gives each
/// member a transaction of their own for each (ownership `FAMILY_SHARED`, its own id and original, charged nothing),
/// which comes back by Restore Purchases like any other; the purchase's refund, or either Apple ID leaving the family,
/// revokes it (`REVOKE`).
extension StoreDatabase {
    /// Which family each Apple ID is in, and beside a member's transaction the purchase it shares.
    static func familyMigration(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE familyMember (appleId TEXT PRIMARY KEY, family TEXT NOT NULL);
            ALTER TABLE storeTransaction ADD COLUMN sharedFrom TEXT;
            CREATE INDEX storeTransactionSharedFrom ON storeTransaction(sharedFrom) WHERE sharedFrom IS NOT NULL;
            """)
    }

    /// The Apple IDs `members` are one family from now on (the first one's, if it has one): each gets what the others
    /// bought of the family-shareable products. One who was in another family leaves it first.
    public func joinFamily(_ members: [String], at date: Date) throws {
        guard let first = members.first else { return }
        try queue.writeTransaction { db in
            try Self.noteClock(db, date)
            let family = try String.fetchOne(db.cachedStatement(sql: "SELECT family FROM familyMember WHERE appleId = ?"), arguments: [first]) ?? first
            for member in members {
                let current = try String.fetchOne(db.cachedStatement(sql: "SELECT family FROM familyMember WHERE appleId = ?"), arguments: [member])
                guard current != family else { continue }
                if current != nil { try leave(db, member, at: date) }
                try db.cachedStatement(sql: "INSERT INTO familyMember (appleId, family) VALUES (?, ?)").execute(arguments: [member, family])
            }
            try share(db, at: date)
        }
    }

    /// `appleId` leaves its family: what it had through the family, and what the family had through it, is revoked.
    /// False when it was in none.
    public func leaveFamily(_ appleId: String, at date: Date) throws -> Bool {
        try queue.writeTransaction { db in
            try Self.noteClock(db, date)
            return try leave(db, appleId, at: date)
        }
    }

    /// Of these transactions, the ones a family member has through Family Sharing.
    func familyShared(_ ids: [String]) throws -> Set<String> {
        guard !ids.isEmpty else { return [] }
        // A receipt's few ids are bound one by one, a statement prepared once for each count; a long receipt's travel
        // as one JSON array, any number of them in one statement (JSON and SQLite's json_each cost every receipt
        // more than the search itself).
        let (sql, arguments): (String, StatementArguments) = ids.count <= Self.idsBoundOneByOne
            ? ("SELECT id FROM storeTransaction WHERE id IN (\(Array(repeating: "?", count: ids.count).joined(separator: ", "))) AND sharedFrom IS NOT NULL",
               StatementArguments(ids))
            : ("SELECT id FROM storeTransaction WHERE id IN (SELECT value FROM json_each(?)) AND sharedFrom IS NOT NULL",
               [String(decoding: try JSONEncoder().encode(ids), as: UTF8.self)])
        return try queue.inDatabase { db in Set(try String.fetchAll(db.cachedStatement(sql: sql), arguments: arguments)) }
    }

    static let idsBoundOneByOne = 32

    /// Each family's members, by family, for `iapsim state`; empty in a file written before families.
    public static func families(_ db: Database) throws -> [[String]] {
        guard try db.tableExists("familyMember") else { return [] }
        let rows = try Row.fetchAll(db, sql: "SELECT family, appleId FROM familyMember ORDER BY family, appleId")
        return Dictionary(grouping: rows, by: { $0["family"] as String }).sorted { $0.key < $1.key }.map { $0.value.map { $0["appleId"] } }
    }

    @discardableResult
    private func leave(_ db: Database, _ appleId: String, at date: Date) throws -> Bool {
        try db.cachedStatement(sql: "DELETE FROM familyMember WHERE appleId = ?").execute(arguments: [appleId])
        guard db.changesCount > 0 else { return false }
        let shared = try String.fetchAll(db.cachedStatement(sql: """
            SELECT s.id FROM storeTransaction s JOIN storeTransaction p ON p.id = s.sharedFrom
            WHERE s.sharedFrom IS NOT NULL AND s.originalTransactionId IS NULL AND s.cancellationDate IS NULL AND (s.account = ?1 OR p.account = ?1)
            """), arguments: [appleId])
        for id in shared { try revoke(db, shared: id, at: date) }
        return true
    }

    /// Gives every member the family-shareable purchases of the others they do not own yet, as transactions of their own.
    /// A member's transaction is on no device's queue: it reaches the member's app by Restore Purchases.
    func share(_ db: Database, at date: Date) throws {
        guard !familyShareable.isEmpty, try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM familyMember)")) == true
        else { return }
        let marks = Array(repeating: "?", count: familyShareable.count).joined(separator: ", ")
        let owed = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT p.id, p.productId, m.appleId FROM storeTransaction p
            JOIN familyMember b ON b.appleId = p.account
            JOIN familyMember m ON m.family = b.family AND m.appleId <> p.account
            WHERE p.productId IN (\(marks)) AND p.state = 'purchased' AND p.originalTransactionId IS NULL AND p.sharedFrom IS NULL
              AND p.cancellationDate IS NULL
              AND NOT EXISTS (SELECT 1 FROM storeTransaction o INDEXED BY storeTransactionOwned
                              WHERE o.account = m.appleId AND o.productId = p.productId AND o.state = 'purchased'
                                AND o.originalTransactionId IS NULL AND o.cancellationDate IS NULL)
            ORDER BY p.date, p.id, m.appleId
            """), arguments: StatementArguments(familyShareable.sorted()))
        for row in owed {
            try db.cachedStatement(sql: """
                INSERT INTO storeTransaction (id, productId, state, date, account, device, finished, sharedFrom)
                VALUES (?, ?, 'purchased', ?, ?, '', 1, ?)
                """).execute(arguments: [try Self.nextId(db), row["productId"] as String, date.timeIntervalSince1970, row["appleId"] as String,
                                         row["id"] as String])
        }
    }

    /// A refunded purchase is no longer the family's: each member's transaction for it is revoked.
    func revokeShares(_ db: Database, of charge: String, at date: Date) throws {
        let shared = try String.fetchAll(db.cachedStatement(sql: """
            SELECT id FROM storeTransaction WHERE sharedFrom = ? AND originalTransactionId IS NULL AND cancellationDate IS NULL
            """), arguments: [charge])
        for id in shared { try revoke(db, shared: id, at: date) }
    }

    /// Revokes a member's transaction (and its restores), and tells the member's server: Apple's `REVOKE`.
    private func revoke(_ db: Database, shared id: String, at date: Date) throws {
        try db.cachedStatement(sql: """
            UPDATE storeTransaction SET cancellationDate = ?, cancellationReason = 0 WHERE (id = ?2 OR originalTransactionId = ?2) AND cancellationDate IS NULL
            """).execute(arguments: [date.timeIntervalSince1970, id])
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT account, productId FROM storeTransaction WHERE id = ?"), arguments: [id])
        else { return }
        if let appleId = row.text("account") { revokedShares.append((appleId, row["productId"])) }
        try enqueue(db, StoreNotification(.revoke, account: row.text("account"), productId: row["productId"], transactionId: id,
                                          originalTransactionId: id, date: date))
    }
}
