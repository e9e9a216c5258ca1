import Foundation
import DataFiles
import GRDB
import IAPCore

/// The store's own durable state: every transaction and the receipt signing key. Survives app kills.
public final class StoreDatabase {
    let queue: DatabaseQueue

    public init(path: String) throws {
        queue = try DataFile.open(path, identity: .store, migrations: [
            ("v1", { db in
                try db.execute(sql: """
                    CREATE TABLE storeTransaction (
                        id TEXT PRIMARY KEY,
                        productId TEXT NOT NULL,
                        state TEXT NOT NULL,
                        applicationUsername TEXT,
                        date DOUBLE NOT NULL,
                        error TEXT,
                        finished INTEGER NOT NULL DEFAULT 0
                    );
                    CREATE INDEX storeTransactionUnfinished ON storeTransaction(finished) WHERE finished = 0;
                    CREATE TABLE meta (key TEXT PRIMARY KEY, value BLOB NOT NULL);
                    """)
            }),
            // The receipt lists non-consumables by product; without this it scanned the whole history twice a purchase.
            ("v2-by-product", { db in
                try db.execute(sql: "CREATE INDEX storeTransactionByProduct ON storeTransaction(productId, state)")
            }),
        ])
    }

    /// Inserts a new transaction with the next id, atomically.
    func insert(productId: String, state: TransactionState, applicationUsername: String?, date: Date, error: StoreError? = nil) throws -> StoreTransaction {
        try queue.write { db in
            let next = try Int.fetchOne(db.cachedStatement(sql: "SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'nextTransaction'")) ?? 1_000_000_001
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('nextTransaction', ?)").execute(arguments: [next + 1])
            let transaction = StoreTransaction(id: String(next), productId: productId, state: state,
                                               applicationUsername: applicationUsername, date: date, error: error)
            try db.cachedStatement(sql: "INSERT INTO storeTransaction (id, productId, state, applicationUsername, date, error) VALUES (?, ?, ?, ?, ?, ?)").execute(
                arguments: [transaction.id, productId, state.rawValue, applicationUsername, date.timeIntervalSince1970, error?.rawValue])
            return transaction
        }
    }

    func update(_ id: String, state: TransactionState, error: StoreError? = nil) throws {
        try queue.write { db in
            try db.cachedStatement(sql: "UPDATE storeTransaction SET state = ?, error = ? WHERE id = ?").execute(arguments: [state.rawValue, error?.rawValue, id])
        }
    }

    /// Marks the transaction finished; false when no unfinished transaction has that id.
    func finish(_ id: String) throws -> Bool {
        try queue.write { db in
            try db.cachedStatement(sql: "UPDATE storeTransaction SET finished = 1 WHERE id = ? AND finished = 0").execute(arguments: [id])
            return db.changesCount > 0
        }
    }

    func transaction(_ id: String) throws -> StoreTransaction? {
        try queue.inDatabase { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT \(Self.columns) FROM storeTransaction WHERE id = ?"), arguments: [id]).map(Self.transaction)
        }
    }

    public func unfinished(limit: Int = -1) throws -> [StoreTransaction] {
        try queue.inDatabase { db in
            try Array(Row.fetchCursor(db.cachedStatement(sql: "SELECT \(Self.columns) FROM storeTransaction WHERE finished = 0 ORDER BY date, id LIMIT ?"),
                             arguments: [limit]).map(Self.transaction))
        }
    }

    public func unfinishedCount() throws -> Int {
        try queue.inDatabase { db in try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM storeTransaction WHERE finished = 0")) ?? 0 }
    }

    /// What the receipt lists: unfinished consumables and every paid non-consumable, chosen by SQLite
    /// (finished consumables are most of a long history and never listed).
    func receiptEntries(nonConsumables: [String]) throws -> [StoreTransaction] {
        let placeholders = Array(repeating: "?", count: nonConsumables.count).joined(separator: ", ")
        return try queue.inDatabase { db in
            try Array(Row.fetchCursor(db.cachedStatement(sql: """
                SELECT \(Self.columns) FROM storeTransaction WHERE finished = 0 AND state IN ('purchased', 'restored')
                UNION
                SELECT \(Self.columns) FROM storeTransaction WHERE productId IN (\(placeholders)) AND state IN ('purchased', 'restored')
                ORDER BY date, id
                """), arguments: StatementArguments(nonConsumables)).map(Self.transaction))
        }
    }

    /// Whether the product has a transaction the store still holds open (StoreKit then refuses a new payment).
    func hasOpenTransaction(productId: String) throws -> Bool {
        try queue.inDatabase { db in
            try Bool.fetchOne(db.cachedStatement(sql: """
                SELECT EXISTS (SELECT 1 FROM storeTransaction WHERE finished = 0 AND productId = ? AND state <> 'failed')
                """), arguments: [productId]) ?? false
        }
    }

    /// Every transaction with whether it was finished, for `iapsim state`.
    public func all() throws -> [(StoreTransaction, finished: Bool)] {
        try queue.inDatabase { db in
            try Array(Row.fetchCursor(db.cachedStatement(sql: "SELECT \(Self.columns) FROM storeTransaction ORDER BY date, id")).map { (Self.transaction($0), $0[6] as Bool) })
        }
    }

    func value(_ key: String) throws -> Data? {
        try queue.inDatabase { db in try Data.fetchOne(db.cachedStatement(sql: "SELECT value FROM meta WHERE key = ?"), arguments: [key]) }
    }

    func setValue(_ value: Data, for key: String) throws {
        try queue.write { db in
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)").execute(arguments: [key, value])
        }
    }

    /// Read by position: a backlog of thousands is decoded at launch, and lookups by name cost more.
    private static let columns = "id, productId, state, applicationUsername, date, error, finished"

    private static func transaction(_ row: Row) -> StoreTransaction {
        StoreTransaction(
            id: row[0], productId: row[1],
            state: TransactionState(rawValue: row[2]) ?? .failed,
            applicationUsername: row.text(3),
            date: Date(timeIntervalSince1970: row[4]),
            error: row.text(5).flatMap(StoreError.init(rawValue:))
        )
    }
}
