import Foundation
import DataFiles
import GRDB
import IAPCore

/// One credit in the ledger: a transaction id credited once to one user (B3).
public struct Credit: Sendable, Equatable {
    public let transactionId: String
    public let user: String
    public let productId: String
    public let orderId: String
    public let coins: Int
}

/// The backend's own durable state: orders, the ledger of credits. Survives app kills.
public final class BackendDatabase {
    let queue: DatabaseQueue

    public init(path: String) throws {
        queue = try DataFile.open(path, identity: .backend, migrations: [
            ("v1", { db in
                try db.execute(sql: """
                    CREATE TABLE orders (
                        id TEXT PRIMARY KEY,
                        user TEXT NOT NULL,
                        productId TEXT NOT NULL,
                        createdAt DOUBLE NOT NULL
                    );
                    CREATE TABLE credit (
                        transactionId TEXT PRIMARY KEY,
                        user TEXT NOT NULL,
                        productId TEXT NOT NULL,
                        orderId TEXT NOT NULL,
                        coins INTEGER NOT NULL,
                        creditedAt DOUBLE NOT NULL,
                        revokedAt DOUBLE
                    );
                    CREATE INDEX creditByUser ON credit(user);
                    CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
                    """)
            }),
            ("v2-support", { db in
                try db.execute(sql: "ALTER TABLE orders ADD COLUMN compensatedAt DOUBLE")
            }),
            // What the backend told the client to finish without a credit (rejected, compensated by support): with the
            // ledger, it accounts for every transaction the store may have finished.
            ("v3-verdicts", { db in
                try db.execute(sql: "CREATE TABLE verdict (transactionId TEXT PRIMARY KEY, status INTEGER NOT NULL, decidedAt DOUBLE NOT NULL)")
            }),
            // A balance is asked for after every purchase and sums every live credit of the user: with what it reads in the
            // index itself, it no longer looks up each credit's row (it replaces the index on user alone).
            ("v4-live-credits", { db in
                try db.execute(sql: """
                    CREATE INDEX creditLive ON credit(user, revokedAt, productId, coins);
                    DROP INDEX creditByUser;
                    """)
            }),
            ("v5-subscriptions", BackendDatabase.subscriptionsMigration),
            // Apple's word that a subscription was refunded, kept even when the backend does not know the subscription yet.
            ("v6-revoked-chains", { db in
                try db.execute(sql: "CREATE TABLE revokedChain (originalTransactionId TEXT PRIMARY KEY, revokedAt DOUBLE NOT NULL)")
            }),
            // A verdict is the backend's own (rejected, compensated), beside Apple's status when Apple gave one: support's
            // compensation was stored as a made-up status 40001 in Apple's field.
            ("v7-verdict-result", { db in
                try db.execute(sql: """
                    CREATE TABLE verdictByResult (transactionId TEXT PRIMARY KEY, result TEXT NOT NULL, appleStatus INTEGER,
                                                  decidedAt DOUBLE NOT NULL);
                    INSERT INTO verdictByResult SELECT transactionId, CASE status WHEN 40001 THEN 'compensated' ELSE 'rejected' END,
                                                       NULLIF(status, 40001), decidedAt FROM verdict;
                    DROP TABLE verdict;
                    ALTER TABLE verdictByResult RENAME TO verdict;
                    """)
            }),
            // Each notification from Apple applied once, by its notificationUUID: the store tells one again after a kill
            // interrupted its delivery, and an old purchase told again would undo a refund told since.
            ("v8-applied-notifications", { db in
                try db.execute(sql: "CREATE TABLE appliedNotification (uuid TEXT PRIMARY KEY)")
            }),
            ("v9-apple-queue", BackendDatabase.appleQueueMigration),
            ("v10-support", BackendDatabase.supportMigration),
            ("v11-holdings", BackendDatabase.holdingsMigration),
            // What a family member holds through Family Sharing (A4), which the app marks as the family's.
            ("v12-family-credits", { db in
                try db.execute(sql: "ALTER TABLE credit ADD COLUMN familyShared INTEGER NOT NULL DEFAULT 0")
            }),
            ("v13-app-account-tokens", BackendDatabase.appAccountTokenMigration),
            // StoreKit 2: the app user a kept request's appAccountToken names, credited when Apple answers.
            ("v14-apple-retry-payer", { db in
                try db.execute(sql: "ALTER TABLE appleRetry ADD COLUMN payer TEXT")
            }),
            // StoreKit 2: a kept request Apple is asked of again through the Server API.
            ("v15-apple-retry-server-api", { db in
                try db.execute(sql: "ALTER TABLE appleRetry ADD COLUMN byServerAPI BOOLEAN NOT NULL DEFAULT 0")
            }),
            // The account's read of what a user holds only through Family Sharing visits those credits alone.
            ("v16-family-credit-index", { db in
                try db.execute(sql: "CREATE INDEX creditFamilyShared ON credit(user, productId) WHERE familyShared = 1 AND revokedAt IS NULL")
            }),
            ("v17-credit-sums", BackendDatabase.creditSumsMigration),
            // A payment Apple told of is matched to its payer's latest order no credit took (`openOrderQuery`): an index
            // probe per order, where the match read the whole ledger for each of the user's orders.
            ("v18-order-indexes", { db in
                try db.execute(sql: """
                    CREATE INDEX ordersByProduct ON orders(user, productId, createdAt, id);
                    CREATE INDEX creditByOrder ON credit(orderId);
                    """)
            }),
            // The inspector's page of a user's latest live credits (`recentCreditsQuery`), read newest first rather than
            // sorted from all of them at every frame.
            ("v19-recent-credits", { db in
                try db.execute(sql: "CREATE INDEX creditRecent ON credit(user, creditedAt, transactionId) WHERE revokedAt IS NULL")
            }),
            // A kept request remembers that its user pressed Buy or Restore for it.
            ("v20-apple-retry-claims", { db in
                try db.execute(sql: "ALTER TABLE appleRetry ADD COLUMN claimsOwnership BOOLEAN NOT NULL DEFAULT 0")
            }),
        ])
    }

    /// Closes the connection: SQLite folds the WAL into the file and removes it. Nothing may be read or written after.
    public func close() throws {
        try queue.close()
    }

    /// Notes that the client was told to finish this transaction without a credit.
    func recordVerdict(transactionId: String, verdict: VerifyResponse.Verdict, appleStatus: Int? = nil, at date: Date,
                       noting decision: ReceiptDecision? = nil) throws {
        try queue.writeTransaction { db in
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO verdict (transactionId, result, appleStatus, decidedAt) VALUES (?, ?, ?, ?)").execute(
                arguments: [transactionId, verdict.rawValue, appleStatus, date.timeIntervalSince1970])
            try decision?.note(db)
        }
    }

    /// Of `ids`, those the backend has neither a credit (live or refunded) nor a verdict for.
    /// One small statement, prepared once and asked of each, rather than one with a hundred placeholders compiled anew
    /// at every launch with finished purchases.
    public func unaccounted(_ ids: [String]) throws -> [String] {
        guard !ids.isEmpty else { return [] }
        return try queue.inDatabase { db in
            let known = try db.cachedStatement(sql: """
                SELECT EXISTS (SELECT 1 FROM credit WHERE transactionId = ?1) OR EXISTS (SELECT 1 FROM verdict WHERE transactionId = ?1)
                """)
            return try ids.filter { try !(Bool.fetchOne(known, arguments: [$0]) ?? false) }
        }
    }

    func createOrder(user: String, productId: String, at date: Date) throws -> String {
        try queue.writeTransaction { db in try Self.createOrder(db, user: user, productId: productId, at: date) }
    }

    /// Credits the transaction unless it already was, in one database transaction: exactly once (B3).
    /// The credit goes to the order's owner (I3) for the product actually paid (B4). Nil when it is not credited yet and
    /// what was verified is not the `original` but a restore of it, which credits nothing of its own.
    func credit(transactionId: String, paidProduct: String, orderId: String?, payer: String? = nil, requester: String, coins: Int, at date: Date,
                original: Bool = true, familyShared: Bool = false, noting decision: ReceiptDecision? = nil) throws -> (Credit, new: Bool)? {
        try queue.writeTransaction { db in
            if let existing = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM credit WHERE transactionId = ?"), arguments: [transactionId]) {
                try decision?.note(db)
                return (Self.credit(existing), false)
            }
            guard original else { return nil }
            let order = try orderId.flatMap { try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM orders WHERE id = ?"), arguments: [$0]) }
            let orderUser: String? = order?["user"]
            let owner = payer ?? orderUser ?? requester
            // An order of someone other than the payer the token names is not this payment's.
            let resolvedOrder: String = try (orderUser == owner ? order?["id"] : nil) ?? Self.createOrder(db, user: owner, productId: paidProduct, at: date)
            let credit = Credit(transactionId: transactionId, user: owner, productId: paidProduct, orderId: resolvedOrder, coins: coins)
            try db.cachedStatement(sql: """
                INSERT INTO credit (transactionId, user, productId, orderId, coins, creditedAt, familyShared) VALUES (?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [transactionId, owner, paidProduct, resolvedOrder, coins, date.timeIntervalSince1970, familyShared])
            try decision?.note(db)
            return (credit, true)
        }
    }

    /// B5: support settled this order by hand; its next verification tells the client to finish it.
    public func markCompensated(orderId: String, at date: Date) throws -> Bool {
        try queue.writeTransaction { db in
            try db.cachedStatement(sql: "UPDATE orders SET compensatedAt = ? WHERE id = ?").execute(arguments: [date.timeIntervalSince1970, orderId])
            return db.changesCount > 0
        }
    }

    /// Whether support settled the transaction by hand: its verdict says so.
    func isCompensated(transactionId: String) throws -> Bool {
        try queue.inDatabase { db in
            try Bool.fetchOne(db.cachedStatement(sql: "SELECT result = 'compensated' FROM verdict WHERE transactionId = ?"), arguments: [transactionId]) ?? false
        }
    }

    public func isCompensated(orderId: String) throws -> Bool {
        try queue.inDatabase { db in
            try Bool.fetchOne(db.cachedStatement(sql: "SELECT compensatedAt IS NOT NULL FROM orders WHERE id = ?"), arguments: [orderId]) ?? false
        }
    }

    /// B5: a refund revokes the credit; the transaction id stays spent, so a replay credits nothing.
    public func refund(transactionId: String, at date: Date) throws -> Bool {
        try queue.writeTransaction { db in
            try db.cachedStatement(sql: "UPDATE credit SET revokedAt = ? WHERE transactionId = ? AND revokedAt IS NULL").execute(
                           arguments: [date.timeIntervalSince1970, transactionId])
            return db.changesCount > 0
        }
    }

    /// What the user holds at `date`: coins, what a credit makes theirs (all but `notKept`: consumables and
    /// subscriptions), and the subscriptions whose entitlement (its expiry, or the grace period while Apple retries the
    /// renewal) has not ended; read as one snapshot.
    public func account(user: String, notKept: Set<String>, units: Set<String> = [], groups: [String: String] = [:], at date: Date) throws -> Account {
        try queue.readTransaction { db in
            var coins = 0, credits: [String: Int] = [:]
            for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT productId, coins, credits FROM creditSum WHERE user = ?"), arguments: [user]) {
                coins += row[1] as Int
                credits[row[0]] = row[2]
            }
            let products = try Self.heldProducts(db, user: user, base: Array(credits.keys))
            var account = Account(coins: coins, owned: Self.owned(credited: products, entitlements: try Self.entitlements(db, user: user),
                                                                   notKept: notKept, at: date))
            // A product is the family's when every live credit of it is.
            let shared = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT productId, COUNT(*) FROM credit INDEXED BY creditFamilyShared
                WHERE user = ? AND familyShared = 1 AND revokedAt IS NULL GROUP BY productId
                """), arguments: [user])
            account.familyShared = Set(shared.compactMap { row -> String? in
                let productId: String = row[0]
                return credits[productId] == row[1] ? productId : nil
            }).intersection(account.owned)
            for (productId, count) in credits where units.contains(productId) { account.units[productId] = count }
            // A refunded subscription spent the intro offer too, as the server's rule for StoreKit 2 counts it.
            let refunded = groups.isEmpty ? [] : try String.fetchAll(db.cachedStatement(sql: """
                SELECT DISTINCT productId FROM credit WHERE user = ? AND revokedAt IS NOT NULL
                """), arguments: [user])
            account.subscribedGroups = Set((Array(credits.keys) + refunded).compactMap { groups[$0] })
            return account
        }
    }

    /// The one rule for what a user holds at `date` (the app's account and `iapsim state`): each product a live credit
    /// makes theirs, but for `notKept`, and each subscription whose entitlement has not ended.
    public static func owned(credited products: [String], entitlements: [Entitlement], notKept: Set<String>, at date: Date) -> Set<String> {
        Set(products).subtracting(notKept).union(entitlements.filter { $0.isActive(at: date) }.map(\.productId))
    }

    /// Every live credit, for `iapsim state`.
    public func credits() throws -> [Credit] {
        try queue.inDatabase { db in
            try Array(Row.fetchCursor(db.cachedStatement(sql: "SELECT * FROM credit WHERE revokedAt IS NULL ORDER BY creditedAt, transactionId")).map(Self.credit))
        }
    }

    /// The user's latest credit for any of `productIds`, refunded ones included: what they had of them before.
    func latestCredit(user: String, productIds: [String]) throws -> String? {
        guard !productIds.isEmpty else { return nil }
        return try queue.inDatabase { db in
            try String.fetchOne(db, sql: """
                SELECT transactionId FROM credit WHERE user = ? AND productId IN (\(Array(repeating: "?", count: productIds.count).joined(separator: ", ")))
                ORDER BY creditedAt DESC, transactionId DESC LIMIT 1
                """, arguments: StatementArguments([user] + productIds))
        }
    }

    /// A user's latest live credits, newest first, and how many there are: what the inspector shows.
    public func recentCredits(user: String, limit: Int) throws -> (credits: [Credit], total: Int) {
        try queue.inDatabase { db in
            let total = try Int.fetchOne(db.cachedStatement(sql: "SELECT SUM(credits) FROM creditSum WHERE user = ?"), arguments: [user]) ?? 0
            let credits = try Array(Row.fetchCursor(db.cachedStatement(sql: Self.recentCreditsQuery), arguments: [user, limit]).map(Self.credit))
            return (credits, total)
        }
    }

    static let recentCreditsQuery = "SELECT * FROM credit WHERE user = ? AND revokedAt IS NULL ORDER BY creditedAt DESC, transactionId DESC LIMIT ?"

    static func createOrder(_ db: Database, user: String, productId: String, at date: Date) throws -> String {
        let next = try Int.fetchOne(db.cachedStatement(sql: "SELECT value FROM meta WHERE key = 'nextOrder'")) ?? 1
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('nextOrder', ?)").execute(arguments: [next + 1])
        let digits = String(next)
        let id = "ORD-" + String(repeating: "0", count: max(6 - digits.count, 0)) + digits
        try db.cachedStatement(sql: "INSERT INTO orders (id, user, productId, createdAt) VALUES (?, ?, ?, ?)").execute(
                       arguments: [id, user, productId, date.timeIntervalSince1970])
        return id
    }

    static func credit(_ row: Row) -> Credit {
        Credit(transactionId: row["transactionId"], user: row["user"], productId: row["productId"], orderId: row["orderId"], coins: row["coins"])
    }
}
