import Foundation
import DataFiles
import GRDB
import MockStore

/// `iapsim state`: what each party holds, as JSON. The field names are a contract with QA scripts.
/// It only reads: each file is checked as the app checks it, then read through a read-only connection that never
/// checkpoints, deletes or creates a WAL file.
public enum StateReport {
    public static func json(for directory: DataDirectory) throws -> String {
        try directory.checkExisting()
        let files = FileManager.default
        guard [directory.store, directory.backend, directory.keychain].contains(where: files.fileExists(atPath:)) else {
            throw DataDirectoryError(description: "\(directory.path) holds no iapsim data (no store.sqlite, backend.sqlite or client-keychain.sqlite); check --data-dir")
        }
        var transactions: [[String: Any]] = []
        if files.fileExists(atPath: directory.store) {
            // By name: a file of an earlier version (not yet migrated by the app) has no account or original id.
            transactions = try read(directory.store, as: .store, "SELECT * FROM storeTransaction ORDER BY date, id") { row in
                ["transactionId": row["id"] as String, "productId": row["productId"] as String, "state": row["state"] as String,
                 "finished": row["finished"] as Bool, "applicationUsername": row["applicationUsername"] as String? ?? NSNull(),
                 "error": row["error"] as String? ?? NSNull(), "account": (row.hasColumn("account") ? row["account"] as String? : nil) ?? NSNull(),
                 "originalTransactionId": (row.hasColumn("originalTransactionId") ? row["originalTransactionId"] as String? : nil) ?? NSNull(),
                 "device": (row.hasColumn("device") ? row["device"] as String? : nil) ?? StoreDatabase.firstDevice]
                    .merging(appleFields(row)) { first, _ in first }
            }
        }
        var accounts: [String: [String: Any]] = [:]
        func account(_ name: String) -> [String: Any] { accounts[name] ?? ["owned": [String](), "subscriptions": [Any](), "revokedCredits": [Any]()] }
        // The store's clock as it last acted: what "owned now" means for a skipped or fast clock.
        var now = Date().timeIntervalSince1970
        if files.fileExists(atPath: directory.store), try tableExists("subscription", in: directory.store, as: .store) {
            now = try read(directory.store, as: .store, """
                SELECT MAX(COALESCE((SELECT CAST(value AS REAL) FROM meta WHERE key = 'clock'), 0), COALESCE((SELECT MAX(date) FROM storeTransaction), 0))
                """) { $0[0] as Double }.first ?? now
            for (user, chain) in try read(directory.store, as: .store, """
                SELECT s.account, s.productId, s.groupId, s.autoRenew, s.renewsAs, s.expiresAt, s.retryUntil, s.expirationIntent, s.revokedAt,
                       s.originalTransactionId, t.offer FROM subscription s LEFT JOIN storeTransaction t ON t.id = s.latestTransactionId
                ORDER BY s.account, s.groupId
                """, { row -> (String, [String: Any]) in
                    let status = row[8] as Double? != nil ? "revoked" : row[7] as Int? != nil ? "expired" : row[6] as Double? != nil ? "billing-retry"
                        : !(row[3] as Bool) ? "cancelled" : row.text(10) == "trial" ? "trial" : "active"
                    return (row[0], ["productId": row[1] as String, "subscription_group_identifier": row[2] as String, "status": status,
                                     "expires_date_ms": ms(row[5]), "auto_renew_status": (row[3] as Bool) ? "1" : "0",
                                     "auto_renew_product_id": row[4] as String, "grace_period_expires_date_ms": (row[6] as Double?).map(ms) ?? NSNull(),
                                     "expiration_intent": (row[7] as Int?).map(String.init) ?? NSNull(), "original_transaction_id": row[9] as String])
                }) {
                var entry = account(user)
                entry["subscriptions"] = (entry["subscriptions"] as? [Any] ?? []) + [chain]
                accounts[user] = entry
            }
        }
        var credits: [[String: Any]] = []
        if files.fileExists(atPath: directory.backend) {
            credits = try read(directory.backend, as: .backend, """
                SELECT transactionId, user, productId, orderId, coins FROM credit WHERE revokedAt IS NULL ORDER BY creditedAt, transactionId
                """) { row in
                ["transactionId": row[0] as String, "user": row[1] as String, "productId": row[2] as String, "orderId": row[3] as String,
                 "coins": row[4] as Int]
            }
        }
        if files.fileExists(atPath: directory.backend), try tableExists("entitlement", in: directory.backend, as: .backend) {
            for (user, product) in try read(directory.backend, as: .backend, """
                SELECT user, productId FROM credit WHERE revokedAt IS NULL AND coins = 0 AND productId NOT IN (SELECT productId FROM entitlement)
                UNION SELECT user, productId FROM entitlement WHERE revokedAt IS NULL AND ? < MAX(expiresAt, COALESCE(graceUntil, 0))
                """, arguments: [now], { ($0[0] as String, $0[1] as String) }) {
                var entry = account(user)
                entry["owned"] = ((entry["owned"] as? [String] ?? []) + [product]).sorted()
                accounts[user] = entry
            }
            for (user, revoked) in try read(directory.backend, as: .backend, """
                SELECT user, transactionId, productId, revokedAt FROM credit WHERE revokedAt IS NOT NULL ORDER BY revokedAt, transactionId
                """, { row -> (String, [String: Any]) in
                    (row[0], ["transactionId": row[1] as String, "productId": row[2] as String, "revokedAt_ms": ms(row[3])])
                }) {
                var entry = account(user)
                entry["revokedCredits"] = (entry["revokedCredits"] as? [Any] ?? []) + [revoked]
                accounts[user] = entry
            }
        }
        // The first device's keychain is the client's as it always was; every other device's is listed by its name.
        var devices: [String: Any] = [:]
        let others = (try? files.contentsOfDirectory(atPath: directory.path + "/devices")) ?? []
        for name in others.sorted() where files.fileExists(atPath: directory.on(device: name).keychain) {
            devices[name] = ["users": try users(in: directory.on(device: name).keychain)]
        }
        let report: [String: Any] = [
            "store": ["transactions": transactions],
            "backend": ["credits": credits],
            // Per user, Apple's and the backend's view: what is owned now (by the store's clock), each subscription with its
            // status and expiry, and each credit a refund took back.
            "accounts": accounts,
            "client": ["users": files.fileExists(atPath: directory.keychain) ? try users(in: directory.keychain) : [:], "devices": devices],
        ]
        let data = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys, .prettyPrinted])
        return String(decoding: data, as: UTF8.self)
    }

    /// Each user with something in this keychain: pending orders and open intents.
    private static func users(in keychain: String) throws -> [String: Any] {
        var users: [String: Any] = [:]
        let orders = try read(keychain, as: .keychain, """
            SELECT transactionId, user, productId, orderId, attempts, status FROM pendingOrder ORDER BY user, purchasedAt, transactionId
            """) { row -> (String, [String: Any]) in
            (row[1], ["transactionId": row[0] as String, "productId": row[2] as String, "orderId": row.text(3) ?? NSNull(),
                      "attempts": row[4] as Int, "status": row[5] as String])
        }
        // The notes of who is paying (issue 11); a file of an earlier version has none yet.
        let hasIntents = try !read(keychain, as: .keychain, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'intent'") { _ in 1 }.isEmpty
        let intents = hasIntents ? try read(keychain, as: .keychain, "SELECT id, user, productId, orderId, interrupted FROM intent ORDER BY id") {
            row -> (String, [String: Any]) in
            (row[1], ["id": row[0] as Int64, "productId": row[2] as String, "orderId": row.text(3) ?? NSNull(), "interrupted": row[4] as Bool])
        } : []
        let pending = Dictionary(grouping: orders, by: \.0), open = Dictionary(grouping: intents, by: \.0)
        for user in Set(pending.keys).union(open.keys) {
            users[user] = ["pending": (pending[user] ?? []).map(\.1), "openIntents": (open[user] ?? []).map(\.1)]
        }
        return users
    }

    /// Apple's receipt fields of a store transaction, where the file has them and they apply.
    private static func appleFields(_ row: Row) -> [String: Any] {
        guard row.hasColumn("webOrderLineItemId") else { return [:] }
        var fields: [String: Any] = ["purchase_date_ms": ms(row["date"]),
                                     "original_transaction_id": row["originalTransactionId"] as String? ?? row["id"] as String]
        if let expires = row["expiresDate"] as Double? { fields["expires_date_ms"] = ms(expires) }
        if let offer = row["offer"] as String? {
            fields["is_trial_period"] = String(offer == "trial")
            fields["is_in_intro_offer_period"] = String(offer == "intro")
        }
        if let cancelled = row["cancellationDate"] as Double? { fields["cancellation_date_ms"] = ms(cancelled) }
        if let reason = row["cancellationReason"] as Int? { fields["cancellation_reason"] = String(reason) }
        if let order = row["webOrderLineItemId"] as String? { fields["web_order_line_item_id"] = order }
        return fields
    }

    private static func ms(_ seconds: Double) -> String { String(Int64((seconds * 1000).rounded())) }

    private static func tableExists(_ name: String, in path: String, as identity: DataFileIdentity) throws -> Bool {
        try !read(path, as: identity, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", arguments: [name]) { _ in 1 }.isEmpty
    }

    private static func read<T>(_ path: String, as identity: DataFileIdentity, _ sql: String, arguments: StatementArguments = [],
                                _ row: (Row) -> T) throws -> [T] {
        let queue = try DataFile.openForReading(path, as: identity)
        do {
            return try queue.inDatabase { db in
                var rows: [T] = []
                let cursor = try Row.fetchCursor(db, sql: sql, arguments: arguments)
                while let next = try cursor.next() { rows.append(row(next)) }
                return rows
            }
        } catch let error as DatabaseError {
            throw DataFileError(path: path, problem: error.message ?? "\(error)")
        }
    }
}
