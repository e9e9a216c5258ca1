import DataFiles
import Foundation
import GRDB
import IAPCore
import MockStore

/// Every device the data directory has, for the devices panel: whom the app there is logged in as, what the store
/// holds unfinished in its queue and what its client keeps unconfirmed. Only reads, as `iapsim state` does: the files of
/// a device whose app is not running stay as they were, and the running one's are read beside its own connections.
enum DeviceRoster {
    static func read(_ directory: DataDirectory) -> [DeviceSummary] {
        let store = read(directory.store, as: .store) { db in
            (appleIds: try StoreDatabase.signedInAppleIds(db), unfinished: try StoreDatabase.queuedCounts(db))
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

    /// nil when the file is missing or cannot be read: the panel says it does not know rather than nothing.
    private static func read<T>(_ path: String, as identity: DataFileIdentity, _ body: (Database) throws -> T) -> T? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try? DataFile.openForReading(path, as: identity).inDatabase(body)
    }
}
