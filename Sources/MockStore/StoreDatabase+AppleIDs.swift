import DataFiles
import GRDB

/// The Apple ID signed in on each device (A1): who pays, who owns, whose unfinished transactions the queue shows.
extension StoreDatabase {
    /// Each device's signed-in Apple ID, and beside each transaction the app user who pressed Buy. A transaction written
    /// before keeps its account: each app user had an Apple ID of their own name, and still owns what it paid for.
    static func appleIdMigration(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE signedInAppleId (device TEXT PRIMARY KEY, appleId TEXT NOT NULL);
            ALTER TABLE storeTransaction ADD COLUMN pressedBy TEXT;
            UPDATE storeTransaction SET pressedBy = account;
            """)
    }

    /// A statement's condition, with the Apple ID bound twice: the row is the signed-in Apple ID's, or none is signed in
    /// (each app user's own), or the row predates accounts.
    static let signedInOnly = signedInOnly(appleId: "?")

    /// The same condition on an Apple ID given as an expression (a bound `?`, or a column of a joined table).
    private static func signedInOnly(appleId: String) -> String {
        "(\(appleId) IS NULL OR account IS NULL OR account = \(appleId))"
    }

    /// Each device's signed-in Apple ID, read from a store file of any version (one from before Apple IDs has none).
    public static func signedInAppleIds(_ db: Database) throws -> [String: String] {
        guard try db.tableExists("signedInAppleId") else { return [:] }
        return Dictionary(try Row.fetchAll(db, sql: "SELECT device, appleId FROM signedInAppleId").map { ($0[0] as String, $0[1] as String) },
                          uniquingKeysWith: { first, _ in first })
    }

    /// How many unfinished transactions each device's queue shows (`queuedCount`'s rows, for every device), read from a
    /// store file of any version: before Apple IDs, every unfinished transaction made there.
    public static func queuedCounts(_ db: Database) throws -> [String: Int] {
        let sql = try db.tableExists("signedInAppleId")
            ? """
              SELECT device, COUNT(*) FROM storeTransaction LEFT JOIN signedInAppleId s USING (device)
              WHERE finished = 0 AND \(signedInOnly(appleId: "s.appleId")) GROUP BY device
              """
            : "SELECT device, COUNT(*) FROM storeTransaction WHERE finished = 0 GROUP BY device"
        return Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: sql).map { ($0[0] as String, $0[1] as Int) })
    }

    static func signedIn(_ db: Database, device: String) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT appleId FROM signedInAppleId WHERE device = ?"), arguments: [device])
    }

    /// Signs `appleId` in on this device, durably: it pays from now on, and the queue shows its transactions only.
    func signIn(appleId: String) throws {
        try queue.writeTransaction { db in
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO signedInAppleId (device, appleId) VALUES (?, ?)").execute(arguments: [device, appleId])
        }
        self.appleId = appleId
    }

    /// Whether this device is as a new phone is before its owner signs in: no Apple ID signed in here, in data that is
    /// not from before Apple IDs (transactions, and none ever signed in anywhere: there each app user keeps paying with
    /// an Apple ID of their own name, so that nothing owned moves).
    public func awaitsAppleId() throws -> Bool {
        try queue.inDatabase { db in
            guard try Self.signedIn(db, device: device) == nil else { return false }
            return try Bool.fetchOne(db.cachedStatement(sql: """
                SELECT EXISTS (SELECT 1 FROM signedInAppleId) OR NOT EXISTS (SELECT 1 FROM storeTransaction)
                """)) ?? false
        }
    }

    /// The Apple ID an app user pays and restores with on this device: the signed-in one, else one of their own name.
    public func appleId(for user: String) -> String {
        appleId ?? user
    }
}

extension StoreDatabase {
    /// Apple's side of a transaction, as support can ask Apple for it: the Apple ID it charged, the order id the app put
    /// on it, and the order ids of that Apple ID's other payments; and whether any Apple ID was ever signed in here.
    public func appleRecords(of transactionId: String) throws -> (appleId: String?, orderId: String?, appleIdOrderIds: [String], perUser: Bool)? {
        try queue.inDatabase { db in
            guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT account, applicationUsername FROM storeTransaction WHERE id = ?"),
                                             arguments: [transactionId]) else { return nil }
            let appleId = row.text("account")
            let others = try appleId.map {
                try String.fetchAll(db.cachedStatement(sql: """
                    SELECT DISTINCT applicationUsername FROM storeTransaction INDEXED BY storeTransactionOwned
                    WHERE account = ? AND applicationUsername IS NOT NULL AND applicationUsername <> '' AND id <> ?
                    """), arguments: [$0, transactionId])
            } ?? []
            let perUser = try Bool.fetchOne(db.cachedStatement(sql: "SELECT NOT EXISTS (SELECT 1 FROM signedInAppleId)")) ?? true
            return (appleId, row.text("applicationUsername").flatMap { $0.isEmpty ? nil : $0 }, others, perUser)
        }
    }
}
