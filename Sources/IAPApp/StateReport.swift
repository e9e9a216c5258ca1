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
        // The first device's keychain is the client's as it always was; every other device's is listed by its name.
        var devices: [String: Any] = [:]
        let others = (try? files.contentsOfDirectory(atPath: directory.path + "/devices")) ?? []
        for name in others.sorted() where files.fileExists(atPath: directory.on(device: name).keychain) {
            devices[name] = ["users": try users(in: directory.on(device: name).keychain)]
        }
        let report: [String: Any] = [
            "store": ["transactions": transactions],
            "backend": ["credits": credits],
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

    private static func read<T>(_ path: String, as identity: DataFileIdentity, _ sql: String, _ row: (Row) -> T) throws -> [T] {
        let queue = try DataFile.openForReading(path, as: identity)
        do {
            return try queue.inDatabase { db in
                var rows: [T] = []
                let cursor = try Row.fetchCursor(db, sql: sql)
                while let next = try cursor.next() { rows.append(row(next)) }
                return rows
            }
        } catch let error as DatabaseError {
            throw DataFileError(path: path, problem: error.message ?? "\(error)")
        }
    }
}
