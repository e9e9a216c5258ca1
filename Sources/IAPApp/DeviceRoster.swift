import DataFiles
import Foundation
import GRDB
import IAPCore

/// Every device the data directory has, for the devices panel: whom the app there is logged in as, what the store
/// holds unfinished in its queue and what its client keeps unconfirmed. Only reads, as `iapsim state` does: the files of
/// a device whose app is not running stay as they were, and the running one's are read beside its own connections.
enum DeviceRoster {
    static func read(_ directory: DataDirectory) -> [DeviceSummary] {
        // A store file from before Apple IDs has no table of them: every device is then each user's own, and its queue
        // holds every unfinished transaction made there.
        let store = read(directory.store, as: .store) { db in
            guard try db.tableExists("signedInAppleId") else {
                return (appleIds: [String: String](), unfinished: try counts(db, sql: "SELECT device, COUNT(*) FROM storeTransaction WHERE finished = 0 GROUP BY device"))
            }
            let appleIds = try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT device, appleId FROM signedInAppleId").map { ($0[0] as String, $0[1] as String) })
            // Counted as the device's own queue shows them: those of the Apple ID signed in there, and those paid
            // before any was.
            let unfinished = try counts(db, sql: """
                SELECT t.device, COUNT(*) FROM storeTransaction t LEFT JOIN signedInAppleId s ON s.device = t.device
                WHERE t.finished = 0 AND (s.appleId IS NULL OR t.account IS NULL OR t.account = s.appleId) GROUP BY t.device
                """)
            return (appleIds: appleIds, unfinished: unfinished)
        }
        let appleIds = store?.appleIds ?? [:]
        let unfinished = store?.unfinished
        return directory.deviceNames.map { name in
            let files = directory.on(device: name)
            let user = read(files.sandbox, as: .sandbox) { try String.fetchOne($0, sql: "SELECT value FROM session WHERE key = 'lastUser'") } ?? nil
            // A device without a keychain yet keeps nothing; one without a row in the store's queue holds nothing there.
            let pending = FileManager.default.fileExists(atPath: files.keychain)
                ? read(files.keychain, as: .keychain) { try Int.fetchOne($0, sql: "SELECT COALESCE(SUM(count), 0) FROM pendingCount") ?? 0 } : 0
            return DeviceSummary(name: name, current: name == directory.device, user: user, appleId: appleIds[name], unfinished: unfinished.map { $0[name] ?? 0 },
                                 pending: pending)
        }
    }

    private static func counts(_ db: Database, sql: String) throws -> [String: Int] {
        try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: sql).map { ($0[0] as String, $0[1] as Int) })
    }

    /// nil when the file is missing or cannot be read: the panel says it does not know rather than nothing.
    private static func read<T>(_ path: String, as identity: DataFileIdentity, _ body: (Database) throws -> T) -> T? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try? DataFile.openForReading(path, as: identity).inDatabase(body)
    }
}
