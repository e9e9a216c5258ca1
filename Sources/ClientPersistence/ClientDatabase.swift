import Foundation
import DataFiles
import GRDB
import IAPCore

/// The client's two stores: the keychain (pending orders, survives reinstall) and the app sandbox (wiped on reinstall).
public final class ClientDatabase: ClientVault {
    let keychain: DatabaseQueue
    let sandbox: DatabaseQueue

    public init(keychainPath: String, sandboxPath: String) throws {
        keychain = try DataFile.open(keychainPath, identity: .keychain, migrations: Self.keychainMigrations)
        sandbox = try DataFile.open(sandboxPath, identity: .sandbox, migrations: [
            ("v1", { db in
                try db.execute(sql: "CREATE TABLE session (key TEXT PRIMARY KEY, value TEXT)")
            }),
        ])
    }

    static let keychainMigrations: [(String, @Sendable (Database) throws -> Void)] = [
        ("v1", { db in
            try db.execute(sql: """
                CREATE TABLE pendingOrder (
                    transactionId TEXT PRIMARY KEY,
                    user TEXT NOT NULL,
                    productId TEXT NOT NULL,
                    orderId TEXT,
                    purchasedAt DOUBLE NOT NULL,
                    price TEXT NOT NULL,
                    receiptHash TEXT,
                    attempts INTEGER NOT NULL,
                    lastAttemptAt DOUBLE,
                    status TEXT NOT NULL
                );
                CREATE INDEX pendingOrderByUser ON pendingOrder(user);
                CREATE TABLE paymentIntent (
                    user TEXT NOT NULL,
                    productId TEXT NOT NULL,
                    orderId TEXT,
                    PRIMARY KEY (user, productId)
                );
                """)
        }),
        // One intent per payment, open until its payment is claimed, fails or is cancelled; never matched to a
        // payment older than itself. Intents kept from before carry no date and so may match any payment.
        ("v2-intents-per-payment", { db in
            try db.execute(sql: """
                CREATE TABLE intent (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    user TEXT NOT NULL,
                    productId TEXT NOT NULL,
                    orderId TEXT,
                    createdAt DOUBLE NOT NULL,
                    interrupted INTEGER NOT NULL DEFAULT 0
                );
                INSERT INTO intent (user, productId, orderId, createdAt) SELECT user, productId, orderId, 0 FROM paymentIntent;
                DROP TABLE paymentIntent;
                """)
        }),
        // The verify queue reads a page at a time in queue order, and the count, without touching the rest.
        ("v3-queue-order", { db in
            try db.execute(sql: """
                CREATE INDEX pendingOrderQueue ON pendingOrder(user, status, attempts, purchasedAt, transactionId);
                DROP INDEX pendingOrderByUser;
                """)
        }),
        // The status line's count before the first frame: counting a large backlog reads all of its index, so
        // SQLite keeps the count itself, whoever writes the rows. No OR IGNORE in the triggers: the statement that
        // fires them (an upsert) would impose its own conflict handling on them.
        ("v4-pending-count", { db in
            try db.execute(sql: """
                CREATE TABLE pendingCount (user TEXT PRIMARY KEY, count INTEGER NOT NULL) WITHOUT ROWID;
                INSERT INTO pendingCount SELECT user, COUNT(*) FROM pendingOrder WHERE status = 'pending' GROUP BY user;
                CREATE TRIGGER pendingCountInsert AFTER INSERT ON pendingOrder WHEN NEW.status = 'pending' BEGIN
                    INSERT INTO pendingCount (user, count) SELECT NEW.user, 0
                    WHERE NOT EXISTS (SELECT 1 FROM pendingCount WHERE user = NEW.user);
                    UPDATE pendingCount SET count = count + 1 WHERE user = NEW.user;
                END;
                CREATE TRIGGER pendingCountDelete AFTER DELETE ON pendingOrder WHEN OLD.status = 'pending' BEGIN
                    UPDATE pendingCount SET count = count - 1 WHERE user = OLD.user;
                END;
                CREATE TRIGGER pendingCountUpdate AFTER UPDATE OF user, status ON pendingOrder
                WHEN OLD.status = 'pending' OR NEW.status = 'pending' BEGIN
                    UPDATE pendingCount SET count = count - 1 WHERE user = OLD.user AND OLD.status = 'pending';
                    INSERT INTO pendingCount (user, count) SELECT NEW.user, 0
                    WHERE NEW.status = 'pending' AND NOT EXISTS (SELECT 1 FROM pendingCount WHERE user = NEW.user);
                    UPDATE pendingCount SET count = count + 1 WHERE user = NEW.user AND NEW.status = 'pending';
                END;
                """)
        }),
        // An order keeps what it paid as a value, shown in the language of the moment it is shown. The orders kept
        // before keep their words (`price`, made in the language of the purchase); a new order's `price` is empty.
        ("v5-price-values", { db in
            try db.execute(sql: """
                ALTER TABLE pendingOrder ADD COLUMN amount TEXT;
                ALTER TABLE pendingOrder ADD COLUMN currency TEXT;
                """)
        }),
        // Whether the user pressed Buy or Restore for the transaction: only then may the backend's restore policy move
        // what another app user holds to them. An order from before claims nothing.
        ("v6-claims", { db in
            try db.execute(sql: "ALTER TABLE pendingOrder ADD COLUMN claimsOwnership INTEGER NOT NULL DEFAULT 0")
        }),
        // The Apple ID signed in when the intent was written: its payment shows in the queue only while that Apple ID is.
        ("v7-intent-apple-id", { db in
            try db.execute(sql: "ALTER TABLE intent ADD COLUMN appleId TEXT")
        }),
        // The Apple ID whose queue an order's transaction is in: it is finished, or known finished, only while signed in.
        ("v8-order-apple-id", { db in
            try db.execute(sql: "ALTER TABLE pendingOrder ADD COLUMN appleId TEXT")
        }),
        // StoreKit 2: the appAccountToken the intent's payment carries, by which its transaction finds it.
        ("v9-intent-app-account-token", { db in
            try db.execute(sql: "ALTER TABLE intent ADD COLUMN appAccountToken TEXT")
        }),
    ]

    /// Closes both files: SQLite folds each WAL into its file and removes it. Nothing may be read or written after.
    public func close() throws {
        try keychain.close()
        try sandbox.close()
    }

    public func snapshot(user: String, pageSize: Int) throws -> UserSnapshot {
        try keychain.inDatabase { db in
            let page = try Self.pendingPage(db, user: user, after: nil, limit: pageSize)
            return UserSnapshot(
                pending: page.orders + (try Array(Row.fetchCursor(db.cachedStatement(sql: "SELECT \(Self.columns) FROM pendingOrder WHERE user = ? AND status IN ('verified', 'rejected')"),
                                                                   arguments: [user]).map(Self.order))),
                pendingTotal: page.total,
                paymentIntents: try Self.intents(db)
            )
        }
    }

    public func pendingPage(user: String, after: PendingOrder?, limit: Int) throws -> PendingPage {
        try keychain.inDatabase { db in try Self.pendingPage(db, user: user, after: after, limit: limit) }
    }

    /// Pages follow the queue order (`VerifyPolicy.queueKey`). A date read back may differ from the stored one in its
    /// last bit, so a page starts a microsecond early: an order read twice is known already, one skipped would be lost.
    private static func pendingPage(_ db: Database, user: String, after: PendingOrder?, limit: Int) throws -> PendingPage {
        let start = after.map { (attempts: $0.attempts, at: $0.purchasedAt.timeIntervalSince1970 - 0.000_001, id: $0.transactionId) }
        return PendingPage(
            orders: try Array(Row.fetchCursor(db.cachedStatement(sql: """
                SELECT \(columns) FROM pendingOrder WHERE user = ? AND status = 'pending' AND (attempts, purchasedAt, transactionId) > (?, ?, ?)
                ORDER BY attempts, purchasedAt, transactionId LIMIT ?
                """), arguments: [user, start?.attempts ?? -1, start?.at ?? -Double.greatestFiniteMagnitude, start?.id ?? "", limit]).map(order)),
            total: try Int.fetchOne(db.cachedStatement(sql: "SELECT count FROM pendingCount WHERE user = ?"), arguments: [user]) ?? 0)
    }

    /// Which of these transactions some user's store on this device already holds, and how far each got.
    public func held(_ transactionIds: [String]) throws -> [String: HeldOrder] {
        guard !transactionIds.isEmpty else { return [:] }
        let placeholders = Array(repeating: "?", count: transactionIds.count).joined(separator: ",")
        return try keychain.inDatabase { db in
            var held: [String: HeldOrder] = [:]
            // Cached: a long queue is read in batches of one size, so the statement is prepared once.
            let rows = try Row.fetchCursor(db.cachedStatement(sql: "SELECT transactionId, user, status FROM pendingOrder WHERE transactionId IN (\(placeholders))"),
                                           arguments: StatementArguments(transactionIds))
            while let row = try rows.next() {
                held[row[0]] = HeldOrder(user: row[1], status: PendingOrder.Status(rawValue: row[2]) ?? .pending)
            }
            return held
        }
    }

    /// How many orders the user's store holds, pending or waiting for the store to finish them.
    public func orderCount(user: String) throws -> Int {
        try keychain.inDatabase { db in
            try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM pendingOrder WHERE user = ?"), arguments: [user]) ?? 0
        }
    }

    /// Upserts the order for its own user only (never takes over another user's transaction), closing the intent it
    /// was claimed by in the same write, then reads it back.
    public func save(_ order: PendingOrder, closingIntent: Int64? = nil) throws {
        try keychain.writeTransaction { db in
            if let closingIntent {
                try db.cachedStatement(sql: "DELETE FROM intent WHERE id = ?").execute(arguments: [closingIntent])
            }
            try db.cachedStatement(sql: """
                INSERT INTO pendingOrder (transactionId, user, productId, orderId, purchasedAt, price, receiptHash, attempts, lastAttemptAt, status, amount, currency,
                                          claimsOwnership, appleId)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (transactionId) DO UPDATE SET
                    orderId = excluded.orderId, receiptHash = excluded.receiptHash, attempts = excluded.attempts,
                    lastAttemptAt = excluded.lastAttemptAt, status = excluded.status
                WHERE pendingOrder.user = excluded.user
                """).execute(arguments: [
                    order.transactionId, order.user, order.productId, order.orderId, order.purchasedAt.timeIntervalSince1970,
                    order.price?.shown ?? "", order.receiptHash, order.attempts, order.lastAttemptAt?.timeIntervalSince1970, order.status.rawValue,
                    order.price?.value?.stored, order.price?.value?.currency, order.claimsOwnership, order.appleId,
                ])
        }
        let stored = try keychain.inDatabase { db in
            try Row.fetchCursor(db.cachedStatement(sql: "SELECT \(Self.columns) FROM pendingOrder WHERE transactionId = ?"), arguments: [order.transactionId])
                .map(Self.order).next()
        }
        guard let stored, stored.sameRecord(as: order) else { throw ReadBackMismatch(transactionId: order.transactionId) }
    }

    public func recordIntent(user: String, productId: String, orderId: String?, appleId: String?, appAccountToken: UUID?,
                             at date: Date) throws -> PaymentIntent {
        try keychain.writeTransaction { db in
            try db.cachedStatement(sql: "INSERT INTO intent (user, productId, orderId, createdAt, appleId, appAccountToken) VALUES (?, ?, ?, ?, ?, ?)")
                .execute(arguments: [user, productId, orderId, date.timeIntervalSince1970, appleId, appAccountToken?.uuidString.lowercased()])
            return PaymentIntent(id: db.lastInsertedRowID, user: user, productId: productId, orderId: orderId, createdAt: date, appleId: appleId,
                                 appAccountToken: appAccountToken)
        }
    }

    public func closeIntent(_ id: Int64) throws {
        try keychain.writeTransaction { db in try db.cachedStatement(sql: "DELETE FROM intent WHERE id = ?").execute(arguments: [id]) }
    }

    public func markIntentInterrupted(_ id: Int64) throws {
        try keychain.writeTransaction { db in try db.cachedStatement(sql: "UPDATE intent SET interrupted = 1 WHERE id = ?").execute(arguments: [id]) }
    }

    /// Every open intent, for `iapsim state` and the tests.
    public func openIntents() throws -> [PaymentIntent] {
        try keychain.inDatabase(Self.intents)
    }

    /// Drops a finished order.
    public func remove(transactionId: String, user: String) throws {
        try keychain.writeTransaction { db in
            try db.cachedStatement(sql: "DELETE FROM pendingOrder WHERE transactionId = ? AND user = ?").execute(arguments: [transactionId, user])
        }
    }

    public func lastUser() throws -> String? {
        try sandbox.inDatabase { db in try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM session WHERE key = 'lastUser'")) }
    }

    /// Every login sets it, mostly to what it already was: that costs a read, where a write would cost a commit and
    /// its sync, before the first frame.
    public func setLastUser(_ user: String?) throws {
        if let current = try sandbox.inDatabase({ db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT value FROM session WHERE key = 'lastUser'"))
        }), current.text(0) == user {
            return
        }
        try sandbox.writeTransaction { db in
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO session (key, value) VALUES ('lastUser', ?)").execute(arguments: [user])
        }
    }

    /// Every user's orders, for `iapsim state`.
    public func allOrders() throws -> [PendingOrder] {
        try keychain.inDatabase { try Self.allOrders($0) }
    }

    /// Every user's orders, by user and purchase, and the open intents, from a keychain file `iapsim state` opened
    /// read-only: a file of an earlier version has no intents yet, nor prices as values.
    public static func holdings(_ db: Database) throws -> (orders: [PendingOrder], intents: [PaymentIntent]) {
        let present = Set(try db.columns(in: "pendingOrder").map(\.name))
        let columns = columnsBeforeValues + (present.contains("amount") ? ", amount, currency" : ", NULL, NULL")
            + (present.contains("claimsOwnership") ? ", claimsOwnership" : ", 0") + (present.contains("appleId") ? ", appleId" : ", NULL")
        return (try allOrders(db, columns: columns), try db.tableExists("intent") ? try intents(db) : [])
    }

    private static func allOrders(_ db: Database, columns: String = columns) throws -> [PendingOrder] {
        try Array(Row.fetchCursor(db.cachedStatement(sql: "SELECT \(columns) FROM pendingOrder ORDER BY user, purchasedAt, transactionId")).map(Self.order))
    }

    private static func intents(_ db: Database) throws -> [PaymentIntent] {
        // `iapsim state` reads a file of an earlier version as it is: without the Apple ID, none was recorded.
        let columns = Set(try db.columns(in: "intent").map(\.name))
        let appleId = columns.contains("appleId") ? "appleId" : "NULL", token = columns.contains("appAccountToken") ? "appAccountToken" : "NULL"
        return try Array(Row.fetchCursor(db.cachedStatement(sql: """
            SELECT id, user, productId, orderId, createdAt, interrupted, \(appleId), \(token) FROM intent ORDER BY id
            """)).map {
            PaymentIntent(id: $0[0], user: $0[1], productId: $0[2], orderId: $0.text(3), createdAt: Date(timeIntervalSince1970: $0[4]),
                          interrupted: $0[5], appleId: $0.text(6), appAccountToken: $0.text(7).flatMap(UUID.init(uuidString:)))
        })
    }

    /// Read by position: a backlog of thousands is decoded at login, and lookups by name cost more.
    private static let columns = columnsBeforeValues + ", amount, currency, claimsOwnership, appleId"

    private static let columnsBeforeValues = "transactionId, user, productId, orderId, purchasedAt, price, receiptHash, attempts, lastAttemptAt, status"

    private static func order(_ row: Row) -> PendingOrder {
        PendingOrder(
            transactionId: row[0], user: row[1], productId: row[2], orderId: row.text(3),
            purchasedAt: Date(timeIntervalSince1970: row[4]), price: price(shown: row.text(5), amount: row.text(10), currency: row.text(11)),
            receiptHash: row.text(6),
            attempts: row[7], lastAttemptAt: row.real(8).map(Date.init(timeIntervalSince1970:)),
            status: PendingOrder.Status(rawValue: row[9]) ?? .pending,
            claimsOwnership: row[12], appleId: row.text(13)
        )
    }

    /// An amount that does not read back as one (written by hand, say) falls back to the words, so the order loads.
    private static func price(shown: String?, amount: String?, currency: String?) -> PendingOrder.Price? {
        if let amount, let currency, let money = Money(stored: amount, currency: currency) { return .value(money) }
        guard let shown, !shown.isEmpty else { return nil }
        return .shown(shown)
    }
}

extension PendingOrder.Price {
    var value: Money? {
        if case let .value(money) = self { money } else { nil }
    }

    var shown: String? {
        if case let .shown(text) = self { text } else { nil }
    }
}

extension PendingOrder {
    /// Equal as stored: dates survive the database to the microsecond, not to the last bit.
    func sameRecord(as other: PendingOrder) -> Bool {
        func micros(_ date: Date?) -> Int64? { date.map { Int64(($0.timeIntervalSince1970 * 1_000_000).rounded()) } }
        var a = self, b = other
        guard micros(a.purchasedAt) == micros(b.purchasedAt), micros(a.lastAttemptAt) == micros(b.lastAttemptAt) else { return false }
        a.lastAttemptAt = nil
        b.lastAttemptAt = nil
        return a.transactionId == b.transactionId && a.user == b.user && a.productId == b.productId && a.orderId == b.orderId
            && a.price == b.price && a.receiptHash == b.receiptHash && a.attempts == b.attempts && a.status == b.status
    }
}

/// The order read back is not the order written: the write did not take (C2 alarm).
public struct ReadBackMismatch: Error, CustomStringConvertible {
    public let transactionId: String
    public var description: String { "order \(transactionId) read back differently from what was written" }
}
