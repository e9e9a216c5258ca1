import Foundation
import GRDB
import GRDBSQLite

/// A data file that could not be opened, said so that a person knows what to do. The file is left as it was.
public struct DataFileError: Error, CustomStringConvertible {
    public let path: String
    public let problem: String

    public var description: String { "\(path): \(problem)" }

    public init(path: String, problem: String) {
        self.path = path
        self.problem = problem
    }
}

public enum DataFile {
    /// Opens (creating if needed) the SQLite file at `path` in WAL mode and brings its schema up to date.
    /// Reads go through `inDatabase`, not `read`: the queue already serializes every access of this process, and
    /// the directory lock keeps other writers out, so `read`'s per-call isolation (a transaction and two pragmas,
    /// each prepared anew) only cost time: the engine went from ~500 to ~980 purchase cycles/s without it (`scripts/bench`).
    /// A file already there is checked first (`inspect`): an empty, damaged or foreign one is named and left as it was.
    /// After the migrations the file carries the party's `application_id`.
    public static func open(_ path: String, identity: DataFileIdentity, migrations: [(String, @Sendable (Database) throws -> Void)]) throws -> DatabaseQueue {
        var config = Configuration()
        config.busyMode = .timeout(2)
        // No table of iapsim's declares a foreign key: GRDB's PRAGMA for them, at every open, has nothing to enforce.
        config.foreignKeysEnabled = false
        // The WAL and shared-memory files stay beside the file when it closes, the WAL emptied (by any journal_size_limit
        // not negative, below), as an iOS app's Core Data store keeps its own: SQLite's default removes both at the last
        // close, so that every launch made both anew and every quit removed them again, two files each made and unlinked
        // per party.
        config.prepareDatabase { db in
            var keep: CInt = 1
            let code = sqlite3_file_control(db.sqliteConnection, nil, SQLITE_FCNTL_PERSIST_WAL, &keep)
            guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code)) }
        }
        // SQLite's side files this open makes: a failed open takes them away again, leaving the folder as it was.
        let sideFiles = ([path + "-wal", path + "-shm"] as [String]).filter { access($0, F_OK) != 0 }
        do {
            let existed = access(path, F_OK) == 0
            if existed { try checkRegularAndNotEmpty(path, as: identity) }
            let folder = (path as NSString).deletingLastPathComponent
            if access(folder, F_OK) != 0 { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
            // A WAL holding pages beside the file (its writer was killed) would be merged into it when a read-write
            // connection closed, whoever's the file is: such a file is checked first through a read-only one, which never
            // merges it.
            let upToDateAside = existed && holdsUnmergedWAL(path)
                ? try inspect(path, as: identity, migrations: migrations.map(\.0)) : nil
            let untouched = existed && isUntouchedSinceCleanClose(path)
            // One connection: it only reads until the checks pass (a foreign file's journal mode is not even set),
            // then it is switched to WAL and migrated. A second connection just for checking costs time at every launch.
            let queue = try DatabaseQueue(path: path, configuration: config)
            // A file that has had every migration and carries the party's id has nothing left to migrate or stamp: the
            // migrator's own look at it (a write transaction) is skipped. A clean close vouches for the rest of `check`.
            let upToDate = try upToDateAside ?? (existed && queue.inDatabase { db in
                untouched ? try isCurrent(db, path: path, as: identity, migrations: migrations.map(\.0))
                    : try check(db, path: path, as: identity, migrations: migrations.map(\.0))
            })
            try queue.writeWithoutTransaction { db in
                // WAL with synchronous=NORMAL: a commit survives a process kill (only power loss could lose the last ones).
                // WAL is the file's own setting, kept in its header: set once; synchronous is the connection's. The header is
                // asked through the connection: a descriptor of our own on the file, once closed, would drop every POSIX lock
                // this process holds on it, SQLite's included, and another process closing the file would then take it for
                // the last one and delete the WAL from under this connection.
                if try String.fetchOne(db, sql: "PRAGMA journal_mode") != "wal" { try db.execute(sql: "PRAGMA journal_mode = WAL") }
                // The limit is above what an automatic checkpoint lets the WAL reach (1,000 pages), so that a running app
                // writes over the WAL's pages after each checkpoint instead of cutting the file and growing it again page
                // by page, which cost a third of raw SQLite's own speed on ext4; the last close still empties it.
                try db.execute(sql: "PRAGMA synchronous = NORMAL; PRAGMA journal_size_limit = \(walSizeLimit)")
            }
            if upToDate { return queue }
            var migrator = DatabaseMigrator()
            for (name, migrate) in migrations { migrator.registerMigration(name, migrate: migrate) }
            try migrator.migrate(queue)
            try queue.writeWithoutTransaction { db in
                if try Int32.fetchOne(db, sql: "PRAGMA application_id") != identity.applicationId {
                    try db.execute(sql: "PRAGMA application_id = \(identity.applicationId)")
                }
            }
            return queue
        } catch {
            // The side files this open made go, once the connection that made them is gone.
            for file in sideFiles { unlink(file) }
            switch error {
            case let error as DatabaseError: throw DataFileError(path: path, problem: explain(error))
            case let error as DataFileError: throw error
            default: throw DataFileError(path: path, problem: "\(error)")
            }
        }
    }

    /// Bytes the WAL keeps between checkpoints (SQLite's `journal_size_limit`): twice an automatic checkpoint's.
    static let walSizeLimit = 8 << 20

    /// Whether a WAL beside the file holds pages not yet merged into it: its writer was killed, or is still running. The
    /// WAL of a file closed cleanly is there, empty.
    static func holdsUnmergedWAL(_ path: String) -> Bool {
        var info = stat()
        return stat(path + "-wal", &info) == 0 && info.st_size > 0
    }

    static func explain(_ error: DatabaseError) -> String {
        switch error.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            "not a readable iapsim database (corrupt or foreign file); left untouched — move it away to start afresh"
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            "locked by another process; close the program that has it open (another iapsim, a sqlite3 shell, a database browser), then run again"
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_READONLY:
            "cannot be opened for writing (\(error.message ?? "permission denied"))"
        case .SQLITE_FULL:
            "cannot be written: the disk is full; free some space (df shows how much is left), then run again — nothing was half-written"
        case .SQLITE_IOERR:
            "cannot be written (disk I/O error \(error.extendedResultCode.rawValue)): the disk may be full, read-only or failing; check it (df, dmesg), then run again — nothing was half-written"
        default:
            error.message ?? "\(error)"
        }
    }

    /// An error from any step on a data file, said as `explain` says it; `path` names the file when known.
    public static func describe(_ error: any Error, path: String? = nil) -> String {
        guard let error = error as? DatabaseError else { return "\(error)" }
        return (path.map { $0 + ": " } ?? "a data file: ") + explain(error)
    }
}

extension Row {
    /// A nullable text column. Decoding `String?` goes through GRDB's generic optional path, a runtime metadata
    /// lookup per value; checking for NULL first keeps the fast path (a third of a 10,000-order login).
    public func text(_ index: Int) -> String? {
        hasNull(atIndex: index) ? nil : self[index] as String
    }

    /// A nullable real column, decoded the fast way (see `text`).
    public func real(_ index: Int) -> Double? {
        hasNull(atIndex: index) ? nil : self[index] as Double
    }

    /// A nullable text column by name, the fast way; nil too when the row has no such column (a file of an earlier
    /// version, read without migrating it).
    public func text(_ column: String) -> String? {
        let value: (any DatabaseValueConvertible)? = self[column]
        return value as? String
    }

    /// A nullable real column by name (see `text`).
    public func real(_ column: String) -> Double? {
        let value: (any DatabaseValueConvertible)? = self[column]
        return switch value {
        case let real as Double: real
        case let integer as Int64: Double(integer)
        default: nil
        }
    }
}
