import Foundation
import GRDB

/// One move of a purchase between app users by the restore policy (A2): the ledger's credit never moves, what the
/// purchase unlocks does.
public struct Transfer: Sendable, Equatable {
    /// The purchase: a non-consumable's original transaction, a subscription's chain.
    public let originalTransactionId: String
    public let productId: String
    public let from: String
    public let to: String
    public let policy: String
    public let at: Date
}

/// Who holds what a purchase unlocks, when the restore policy moved or shared it. The ledger (`credit`) says whom each
/// charge was credited to, once, for ever; a purchase never moved is held by the app user it was credited to, and a
/// subscription chain by its subscriber (`entitlement.user`, who its renewals are credited to). Rows exist only for
/// purchases the policy moved or shared: each app user who holds it (`holds` 1) or held it (`holds` 0).
extension BackendDatabase {
    static func holdingsMigration(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE holding (original TEXT NOT NULL, user TEXT NOT NULL, holds INTEGER NOT NULL, PRIMARY KEY (original, user)) WITHOUT ROWID;
            CREATE INDEX holdingByUser ON holding(user, holds);
            CREATE TABLE transfer (
                id INTEGER PRIMARY KEY, originalTransactionId TEXT NOT NULL, productId TEXT NOT NULL,
                fromUser TEXT NOT NULL, toUser TEXT NOT NULL, policy TEXT NOT NULL, at DOUBLE NOT NULL
            );
            """)
    }

    /// `requester` verified a free re-buy or a restore of a purchase of their Apple ID: a non-consumable credited to
    /// `owner`, or a chain whose charges were credited to `owner`. With a `policy` (the requester pressed Buy or Restore
    /// for it), the policy decides who holds it now, durably, with the move written down; without, the requester only carries it.
    /// Answers whom it is credited to, for the requester's verification: the requester when they hold it.
    func holder(of original: String, productId: String, owner: String, subscription: Bool, askedBy requester: String,
                claiming policy: RestorePolicy?, at date: Date) throws -> String {
        try queue.writeTransaction { db in
            // A chain is its subscriber's now: the app user its charges were credited to, unless a transfer moved it.
            let owner = subscription ? try Self.subscriber(db, of: original) ?? owner : owner
            var holders = try Self.holders(db, original: original, owner: owner, subscription: subscription)
            if holders.contains(requester) { return requester }
            guard let policy, policy != .keep else { return holders.first ?? owner }
            if policy == .transfer {
                if subscription {
                    // The chain is the requester's now: its renewals are credited to them, and no one else holds it.
                    try db.cachedStatement(sql: "UPDATE entitlement SET user = ? WHERE originalTransactionId = ?").execute(arguments: [requester, original])
                    try db.cachedStatement(sql: "DELETE FROM holding WHERE original = ?").execute(arguments: [original])
                } else {
                    for holder in holders + [owner] {
                        try Self.setHolding(db, original: original, user: holder, holds: false)
                    }
                    try Self.setHolding(db, original: original, user: requester, holds: true)
                }
            } else {
                if !subscription {
                    for holder in holders { try Self.setHolding(db, original: original, user: holder, holds: true) }
                }
                try Self.setHolding(db, original: original, user: requester, holds: true)
            }
            if holders.isEmpty { holders = [owner] }
            for holder in holders {
                try db.cachedStatement(sql: """
                    INSERT INTO transfer (originalTransactionId, productId, fromUser, toUser, policy, at) VALUES (?, ?, ?, ?, ?, ?)
                    """).execute(arguments: [original, productId, holder, requester, policy.rawValue, date.timeIntervalSince1970])
            }
            return requester
        }
    }

    /// The app user a subscription chain's renewals are credited to now (nil: the backend has not seen the chain).
    private static func subscriber(_ db: Database, of chain: String) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT user FROM entitlement WHERE originalTransactionId = ?"), arguments: [chain])
    }

    /// Who holds the purchase now. A non-consumable: its holding rows once the policy moved or shared it (its owner's
    /// row written with the first), else its owner. A chain: its subscriber, and whoever a share added.
    private static func holders(_ db: Database, original: String, owner: String, subscription: Bool) throws -> [String] {
        let holding = try String.fetchAll(db.cachedStatement(sql: "SELECT user FROM holding WHERE original = ? AND holds = 1 ORDER BY user"),
                                          arguments: [original])
        if subscription { return [owner] + holding.filter { $0 != owner } }
        let moved = try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM holding WHERE original = ?)"), arguments: [original]) ?? false
        return moved ? holding : [owner]
    }

    /// Who holds the purchase `original` now, for `iapsim state`: a chain's subscriber and whoever a share added; a
    /// non-consumable's holders by the policy, else the app user its live credit is of. Empty when the backend has
    /// neither (not verified yet, or refunded).
    public static func heldBy(_ db: Database, original: String) throws -> [String] {
        let moved = try db.tableExists("holding")
        if let subscriber = try subscriber(db, of: original) {
            return moved ? try holders(db, original: original, owner: subscriber, subscription: true) : [subscriber]
        }
        guard let owner = try String.fetchOne(db, sql: "SELECT user FROM credit WHERE transactionId = ? AND revokedAt IS NULL", arguments: [original])
        else { return [] }
        return moved ? try holders(db, original: original, owner: owner, subscription: false) : [owner]
    }

    private static func setHolding(_ db: Database, original: String, user: String, holds: Bool) throws {
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO holding (original, user, holds) VALUES (?, ?, ?)").execute(arguments: [original, user, holds])
    }

    /// The products `user` holds through a live credit: their own credits' products, but for purchases the policy moved
    /// away from them, and the products of purchases it moved or shared to them. `base` is their own credits' products.
    public static func heldProducts(_ db: Database, user: String, base: [String]) throws -> [String] {
        guard try db.tableExists("holding") else { return base }
        var products = Set(base)
        let away = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT c.transactionId, c.productId FROM holding h JOIN credit c ON c.transactionId = h.original
            WHERE h.user = ? AND h.holds = 0 AND c.user = ? AND c.revokedAt IS NULL
            """), arguments: [user, user])
        let movedAway = Set(away.map { $0[0] as String })
        for productId in Set(away.map { $0[1] as String }) {
            // Still theirs through another purchase of it that stayed with them.
            let others = try String.fetchAll(db.cachedStatement(sql: """
                SELECT transactionId FROM credit WHERE user = ? AND productId = ? AND revokedAt IS NULL
                """), arguments: [user, productId])
            if others.allSatisfy(movedAway.contains) { products.remove(productId) }
        }
        products.formUnion(try String.fetchAll(db.cachedStatement(sql: """
            SELECT c.productId FROM holding h JOIN credit c ON c.transactionId = h.original WHERE h.user = ? AND h.holds = 1 AND c.revokedAt IS NULL
            """), arguments: [user]))
        return products.sorted()
    }

    /// The server's restore policy as last set; transfer when never set (RevenueCat's default).
    func restorePolicy() throws -> RestorePolicy {
        try queue.inDatabase { db in try Self.restorePolicy(db) }
    }

    public static func restorePolicy(_ db: Database) throws -> RestorePolicy {
        try String.fetchOne(db, sql: "SELECT CAST(value AS TEXT) FROM meta WHERE key = 'restorePolicy'").flatMap(RestorePolicy.init(rawValue:)) ?? .transfer
    }

    func setRestorePolicy(_ policy: RestorePolicy) throws {
        try queue.writeTransaction { db in
            try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('restorePolicy', ?)", arguments: [policy.rawValue])
        }
    }

    /// Every move, oldest first (`iapsim state`, the tests), or only the latest `limit` of them (the inspector, which
    /// draws a page, never the whole history); none in a file written before the policy.
    public static func transfers(_ db: Database, latest limit: Int? = nil) throws -> [Transfer] {
        guard try db.tableExists("transfer") else { return [] }
        return try Row.fetchAll(db, sql: "SELECT * FROM (SELECT * FROM transfer ORDER BY id DESC LIMIT ?) ORDER BY id", arguments: [limit ?? -1]).map {
            Transfer(originalTransactionId: $0["originalTransactionId"], productId: $0["productId"], from: $0["fromUser"], to: $0["toUser"],
                     policy: $0["policy"], at: Date(timeIntervalSince1970: $0["at"]))
        }
    }

    public func transfers(latest limit: Int? = nil) throws -> [Transfer] {
        try queue.inDatabase { db in try Self.transfers(db, latest: limit) }
    }
}
