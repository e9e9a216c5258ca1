import Foundation
import GRDB

/// Whose database a file is: SQLite's `application_id` says it, and the tables an earlier iapsim (which wrote no
/// `application_id`) left tell a file of ours from a stranger's.
public struct DataFileIdentity: Sendable {
    /// What the file is, as a person says it ("store", "client keychain").
    public let party: String
    public let applicationId: Int32
    /// The tables iapsim keeps in this party's file (grdb_migrations aside).
    public let tables: Set<String>
    /// Rows that would stop the app when read, as (table, SQL answering the first bad row's key, what is wrong with it).
    public let rowChecks: [(table: String, sql: String, problem: String)]
    /// Tables an earlier iapsim kept that a migration has since dropped.
    public let retired: Set<String>

    public init(party: String, applicationId: Int32, tables: Set<String>, retired: Set<String> = [],
                rowChecks: [(table: String, sql: String, problem: String)] = []) {
        self.party = party
        self.applicationId = applicationId
        self.tables = tables
        self.retired = retired
        self.rowChecks = rowChecks
    }

    /// "iaS1", "iaB1"…: four letters, readable in a hex dump of the file's header.
    private static func id(_ code: String) -> Int32 {
        Int32(bitPattern: code.utf8.reduce(0) { $0 << 8 | UInt32($1) })
    }

    /// A stored date the app can turn into a date: finite and within ±3,000 years.
    private static let sane = "BETWEEN -1e11 AND 1e11"

    public static let store = DataFileIdentity(
        party: "store", applicationId: id("iaS1"),
        tables: ["storeTransaction", "meta", "subscription", "notificationOutbox", "signedInAppleId", "renewalExtension", "massExtension",
                 "familyMember", "offerNonce", "offerCodeRedemption", "oneTimeCode"],
        rowChecks: [("storeTransaction", "SELECT id FROM storeTransaction WHERE finished = 0 AND NOT (date \(sane)) LIMIT 1",
                     "the unfinished transaction %@ has a date that is not a finite number")])
    public static let backend = DataFileIdentity(party: "backend", applicationId: id("iaB1"), tables: ["orders", "credit", "meta", "verdict", "entitlement", "revokedChain", "appliedNotification", "appleRetry", "clientAlarm", "decidedReceipt", "receiptReplay", "holding", "transfer", "appAccountToken", "creditSum"])
    public static let keychain = DataFileIdentity(
        party: "client keychain", applicationId: id("iaK1"), tables: ["pendingOrder", "paymentIntent", "intent", "pendingCount"], retired: ["paymentIntent"],
        rowChecks: [("pendingOrder", "SELECT transactionId FROM pendingOrder WHERE NOT (purchasedAt \(sane)) OR NOT (COALESCE(lastAttemptAt, 0) \(sane)) LIMIT 1",
                     "the pending order %@ has a date that is not a finite number")])
    public static let sandbox = DataFileIdentity(party: "client sandbox", applicationId: id("iaX1"), tables: ["session"])

    public static let all = [store, backend, keychain, sandbox]
}

extension DataFile {
    /// Checks a file that is already there without changing a byte of it (nor creating a WAL file beside it):
    /// not empty, passes SQLite's quick check, is this party's (or an earlier iapsim's), and holds no row that
    /// would stop the app. Throws a one-line error naming the file.
    /// Returns whether the file has had every one of `migrations`, as `check` does.
    /// `unused`: no process has the file open (see `readOnly`).
    @discardableResult
    public static func inspect(_ path: String, as identity: DataFileIdentity, migrations: [String] = [], unused: Bool = false) throws -> Bool {
        try checkRegularAndNotEmpty(path, as: identity)
        do {
            let queue = try readOnly(path, unused: unused)
            return try queue.inDatabase { db in try check(db, path: path, as: identity, migrations: migrations) }
        } catch let error as DatabaseError {
            throw DataFileError(path: path, problem: explain(error))
        }
    }

    /// A file already at `path` is a file (not a folder, a pipe or a device) and holds something: an empty one lost its
    /// data, which SQLite would take for a new database.
    static func checkRegularAndNotEmpty(_ path: String, as identity: DataFileIdentity) throws {
        // stat, not FileManager's attributes, which also look up the owner's and group's names in /etc/passwd and /etc/group.
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        // A folder or a named pipe where the file belongs: SQLite would say only that it cannot open it, or wait on the pipe.
        switch InputFile.notAFile(info.st_mode) {
        case .folder?: throw DataFileError(path: path, problem: "is a folder, not a file of the \(identity.party)'s; move it away, then run again")
        case let .notAFile(what)?: throw DataFileError(path: path, problem: "is \(what), not a file of the \(identity.party)'s; move it away, then run again")
        default: break
        }
        if info.st_size == 0 {
            throw DataFileError(path: path, problem: "is empty (0 bytes): the \(identity.party)'s data is gone from it; left untouched — restore it from a backup, or move it away to start afresh")
        }
    }

    /// The checks of `inspect`, on a connection that has not written anything yet (reads only).
    /// `migrations`: when the file has had all of them, every table they leave must be there.
    /// Returns whether the file is this party's and has had every one of `migrations` (nothing left to migrate or stamp).
    static func check(_ db: Database, path: String, as identity: DataFileIdentity, migrations: [String] = []) throws -> Bool {
        let verdict = try String.fetchAll(db, sql: "PRAGMA quick_check(3)")
        guard verdict == ["ok"] else {
            let said = verdict.joined(separator: "; ").split(whereSeparator: \.isNewline).joined(separator: " ")
            throw DataFileError(path: path, problem: "fails SQLite's integrity check (\(said.prefix(160))); left untouched — restore it from a backup, or move it away to start afresh")
        }
        // One statement for both: every statement on a connection just opened is parsed anew, at every launch after a kill.
        let row = try Row.fetchOne(db, sql: """
            SELECT application_id, (SELECT group_concat(name, char(31)) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%')
            FROM pragma_application_id
            """)
        let owner: Int32 = row?[0] ?? 0
        let tables = Set((row?[1] as String?)?.split(separator: "\u{1F}").map(String.init) ?? [])
        if owner != identity.applicationId {
            if let other = DataFileIdentity.all.first(where: { $0.applicationId == owner }) {
                throw DataFileError(path: path, problem: "is not an iapsim \(identity.party) database: it is the \(other.party)'s; left untouched — put each file back in its place, or move it away")
            }
            let unknown = tables.subtracting(identity.tables).subtracting(["grdb_migrations"])
            // application_id 0 with only our tables: written by an earlier iapsim, stamped once opened.
            guard owner == 0, unknown.isEmpty, tables.isEmpty || !tables.isDisjoint(with: identity.tables) else {
                let what = owner != 0 ? "application_id \(owner)" : "tables \(unknown.sorted().prefix(3).joined(separator: ", "))"
                throw DataFileError(path: path, problem: "is not an iapsim \(identity.party) database (it has \(what)); left untouched — move it away, or give another --data-dir")
            }
        }
        let applied = owner == identity.applicationId && !migrations.isEmpty && tables.contains("grdb_migrations")
            ? try String.fetchSet(db, sql: "SELECT identifier FROM grdb_migrations") : []
        try refuseNewer(applied: applied, known: migrations, path: path, as: identity)
        let migrated = !applied.isEmpty && applied.isSuperset(of: migrations)
        if migrated, let missing = identity.tables.subtracting(identity.retired).subtracting(tables).sorted().first {
            throw DataFileError(path: path, problem: "is missing the table \(missing) that the \(identity.party)'s migrations made; left untouched — restore it from a backup, or move it away to start afresh")
        }
        for check in identity.rowChecks where tables.contains(check.table) {
            if let key = try String.fetchOne(db, sql: check.sql) {
                throw DataFileError(path: path, problem: check.problem.replacingOccurrences(of: "%@", with: key) + "; left untouched — restore it from a backup, or move it away to start afresh")
            }
        }
        return migrated
    }

    /// `check`'s verdict for a file iapsim closed cleanly and nothing touched since: only whether a newer iapsim has
    /// written it since (refused), and whether it has had every one of `migrations` and carries the party's id.
    static func isCurrent(_ db: Database, path: String, as identity: DataFileIdentity, migrations: [String]) throws -> Bool {
        let applied = try DatabaseMigrator().appliedIdentifiers(db)
        try refuseNewer(applied: applied, known: migrations, path: path, as: identity)
        return try applied.isSuperset(of: migrations) && Int32.fetchOne(db, sql: "PRAGMA application_id") == identity.applicationId
    }

    /// A file a newer iapsim has migrated further is that iapsim's: this one would write rows its schema does not expect.
    static func refuseNewer(applied: Set<String>, known: [String], path: String, as identity: DataFileIdentity) throws {
        guard let newer = applied.subtracting(known).sorted().first else { return }
        throw DataFileError(path: path, problem: "was written by a newer iapsim (its \(identity.party) migration \(newer) is unknown to this one); left untouched — open it with that iapsim, or move it away to start afresh")
    }

    /// A read-only connection that leaves the file and its folder as they were: with nothing in a WAL beside the file
    /// and nobody else at it (no side files at all, or `unused`: the caller knows no process has the file open), it
    /// opens it immutable, touching not even the kept WAL and shared-memory files; else it reads through the WAL, noting
    /// its reading in the shared-memory index as every reader does, and never checkpoints.
    public static func readOnly(_ path: String, unused: Bool = false) throws -> DatabaseQueue {
        var config = Configuration()
        config.readonly = true
        config.busyMode = .timeout(2)
        let alone = unused ? !holdsUnmergedWAL(path) : access(path + "-wal", F_OK) != 0 && access(path + "-shm", F_OK) != 0
        if alone, let escaped = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) {
            // SQLite reads "file:" names as URIs when built with SQLITE_USE_URI (Debian's is).
            if let queue = try? DatabaseQueue(path: "file:\(escaped)?immutable=1", configuration: config),
               (try? queue.inDatabase({ try Int.fetchOne($0, sql: "PRAGMA schema_version") })) != nil {
                return queue
            }
        }
        return try DatabaseQueue(path: path, configuration: config)
    }

    /// Opens the file for `state`: checked as `open` checks it, then read-only, changing nothing (`unused`: see `readOnly`).
    public static func openForReading(_ path: String, as identity: DataFileIdentity, unused: Bool = false) throws -> DatabaseQueue {
        try inspect(path, as: identity, unused: unused)
        do { return try readOnly(path, unused: unused) } catch let error as DatabaseError { throw DataFileError(path: path, problem: explain(error)) }
    }
}
