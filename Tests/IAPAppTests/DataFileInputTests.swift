import DataFiles
import Foundation
import GRDB
import IAPApp
import IAPCore
import MockBackend
import MockStore
import Testing

/// Data files (issue 12, defects 1, 3, 6 and 14): a damaged, foreign or empty file is named and left byte for byte
/// as it was; a catalog's values are checked; parties that disagree raise an alarm.
@Suite("Data files: named, left untouched, checked at the edge", .serialized)
struct DataFileInputTests {
    private func temporary() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("iapsim-test-\(UUID().uuidString)").path
    }

    /// A data directory where alice bought 60 coins: credited and finished, every connection closed.
    private func settledDirectory() throws -> DataDirectory {
        let directory = DataDirectory(path: temporary())
        do {
            let app = try AppSession(directory: directory, catalog: shippedCatalog, user: "alice")
            app.advance(0.5)
            app.press(.enter)
            app.settle()
            #expect(app.state.hud?.kind == .success)
        }
        return directory
    }

    private func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    /// A file's bytes as a refused opening must leave them: a -shm file (SQLite's shared index, where every reader notes
    /// what it reads) only has to stay where it is.
    private func kept(_ path: String) -> Data? { path.hasSuffix("-shm") ? Data() : bytes(path) }

    /// Changes a party's file as another program would, then closes it cleanly (no WAL left beside it).
    private func change(_ path: String, _ sql: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: sql) }
        try queue.close()
    }

    /// Opens the parties on `directory`; answers the error, which must name `file`, and checks that nothing changed.
    private func refusedOpening(_ directory: DataDirectory, naming file: String, saying expected: String,
                                sourceLocation: SourceLocation = #_sourceLocation) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()) ?? []
        let before = names.map { kept(directory.path + "/" + $0) }
        do {
            _ = try AppSession(directory: directory, catalog: shippedCatalog, user: "alice")
            Issue.record("opened", sourceLocation: sourceLocation)
        } catch {
            let text = "\(error)"
            #expect(text.contains(file), "\(text)", sourceLocation: sourceLocation)
            #expect(text.contains(expected), "\(text)", sourceLocation: sourceLocation)
            #expect(!text.contains("\n"), sourceLocation: sourceLocation)
        }
        let after = (try? FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()) ?? []
        #expect(after == names, "files appeared or vanished: \(names) → \(after)", sourceLocation: sourceLocation)
        #expect(after.map { kept(directory.path + "/" + $0) } == before, "a file changed", sourceLocation: sourceLocation)
    }

    @Test("a --data-dir that is a broken symbolic link is said to be one, with where it points, whether run claims it or state reads it; nothing is made (found in a QA walk: \"cannot write in it (No such file or directory)\" of a path ls shows)")
    func danglingLink() throws {
        let folder = temporary()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let link = folder + "/data", target = folder + "/gone/data"
        #expect(symlink(target, link) == 0)
        let directory = DataDirectory(path: link)
        for attempt in [{ _ = try directory.claim() }, { try directory.checkExisting() }] as [() throws -> Void] {
            do {
                try attempt()
                Issue.record("accepted")
            } catch {
                #expect("\(error)" == "\(link) is a symbolic link to \(target), which does not exist; make that folder, or give another (--data-dir DIR)")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["data"])
        // A relative link is read from its own folder; a loop of links is said to be one (found in a QA walk).
        #expect(symlink("gone/relative", folder + "/relative") == 0)
        #expect(throws: (any Error).self) { try DataDirectory(path: folder + "/relative").checkExisting() }
        do { try DataDirectory(path: folder + "/relative").checkExisting() } catch {
            #expect("\(error)".contains("is a symbolic link to gone/relative (\(folder)/gone/relative), which does not exist"), "\(error)")
        }
        #expect(symlink(folder + "/loop2", folder + "/loop1") == 0 && symlink(folder + "/loop1", folder + "/loop2") == 0)
        do { _ = try DataDirectory(path: folder + "/loop1").claim() } catch {
            #expect("\(error)" == "\(folder)/loop1 is a symbolic link to \(folder)/loop2, which leads back round a loop of links; give a folder (--data-dir DIR)", "\(error)")
        }
    }

    @Test("reset refuses a folder where a side file belongs, and removes nothing: it deleted a folder named store.sqlite-shm with what was in it (found in a bad-input walk)")
    func resetKeepsAFolderInASideFilesPlace() throws {
        let directory = try settledDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory.path) }
        let shm = directory.store + "-shm"
        unlink(shm)
        try FileManager.default.createDirectory(atPath: shm, withIntermediateDirectories: false)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: shm + "/x"))
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        do {
            _ = try directory.removeAll()
            Issue.record("removed")
        } catch {
            #expect("\(error)".contains("store.sqlite-shm") && "\(error)".contains("nothing was removed"), "\(error)")
        }
        #expect(FileManager.default.contents(atPath: shm + "/x") == Data("mine".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == names)
    }

    @Test("a data folder's parents, as claiming it walks up to make the missing ones: a one-letter name too (`--data-dir d` crashed)")
    func parents() {
        #expect(DataDirectory.parent(of: "d") == "")
        #expect(DataDirectory.parent(of: "a/b") == "a")
        #expect(DataDirectory.parent(of: "/x") == "/")
        #expect(DataDirectory.parent(of: "/tmp/x/y") == "/tmp/x")
        #expect(DataDirectory.parent(of: "./d") == ".")
    }

    @Test("a party's file cut to 0 bytes is named, not silently re-created empty", arguments: ["store.sqlite", "backend.sqlite", "client-keychain.sqlite"])
    func emptyFile(_ name: String) throws {
        let directory = try settledDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory.path) }
        try Data().write(to: URL(fileURLWithPath: directory.path + "/" + name))
        refusedOpening(directory, naming: name, saying: "empty")
    }

    @Test("a named pipe or a folder in a party's file's place is said to be one, with what to do; no side file is made (found by QA: a pipe was 'empty, the data is gone', a folder a raw 'unable to open')",
          arguments: ["backend.sqlite", "store.sqlite"])
    func notAFile(_ name: String) throws {
        for (make, said) in [({ (path: String) in _ = mkfifo(path, 0o644) }, "is a named pipe (FIFO), not a file"),
                             ({ (path: String) in _ = mkdir(path, 0o755) }, "is a folder, not a file")] {
            let directory = try settledDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory.path) }
            let path = directory.path + "/" + name
            for file in [path, path + "-wal", path + "-shm"] { unlink(file) }
            make(path)
            refusedOpening(directory, naming: name, saying: said)
            #expect(!FileManager.default.fileExists(atPath: path + "-wal") && !FileManager.default.fileExists(atPath: path + "-shm"))
        }
    }

    @Test("random bytes in the middle of backend.sqlite are caught at open, not shown as Balance 0")
    func corruptMiddle() throws {
        let directory = try settledDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory.path) }
        let path = directory.backend
        var data = try #require(bytes(path))
        var generator = SystemRandomNumberGenerator()
        let start = 4096 + 8  // inside the second page, past its header
        for i in start..<min(start + 3000, data.count) { data[i] = UInt8.random(in: 0...255, using: &generator) }
        try data.write(to: URL(fileURLWithPath: path))
        refusedOpening(directory, naming: "backend.sqlite", saying: "integrity")
    }

    @Test("a keychain missing a table its migrations made (pendingCount) is named and left alone, not used half-way")
    func missingTable() throws {
        let directory = try settledDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory.path) }
        try change(directory.keychain, "DROP TABLE pendingCount")
        refusedOpening(directory, naming: "client-keychain.sqlite", saying: "pendingCount")
    }

    @Test("a file a newer iapsim migrated (a migration this one does not know) is named and left alone, not written",
          arguments: [false, true])
    func newerMigration(closedCleanly: Bool) throws {
        let directory = try settledDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory.path) }
        try change(directory.store, "INSERT INTO grdb_migrations VALUES ('v99-future')")
        // Closed cleanly by that newer iapsim: its stamp is trusted, and the file's checks are skipped.
        if closedCleanly { DataFile.trust([try #require(FileStamp(path: directory.store))]) }
        refusedOpening(directory, naming: "store.sqlite", saying: "newer iapsim")
    }

    @Test("a foreign SQLite file is named and left alone, never migrated in place; the other parties' files, opened beside it on two threads, are not left behind",
          arguments: ["store.sqlite", "backend.sqlite", "client-keychain.sqlite", "client-sandbox.sqlite"])
    func foreign(name: String) throws {
        let directory = DataDirectory(path: temporary())
        defer { try? FileManager.default.removeItem(atPath: directory.path) }
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        do {
            let queue = try DatabaseQueue(path: directory.path + "/" + name)
            try queue.write { try $0.execute(sql: "CREATE TABLE stranger (x); INSERT INTO stranger VALUES (42)") }
        }
        refusedOpening(directory, naming: name, saying: "not an iapsim")
    }

    @Test("a foreign SQLite file with its WAL beside it (left by a program that was killed) is named and left byte for byte: its WAL is not merged into it (found by a helper's bad inputs)",
          arguments: ["store.sqlite", "client-keychain.sqlite"])
    func foreignWithWAL(name: String) throws {
        let directory = DataDirectory(path: temporary())
        defer { try? FileManager.default.removeItem(atPath: directory.path) }
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        let source = directory.path + "/source.sqlite"
        do {
            var config = Configuration()
            config.prepareDatabase { try $0.execute(sql: "PRAGMA journal_mode = WAL") }
            let queue = try DatabaseQueue(path: source, configuration: config)
            try queue.write { try $0.execute(sql: "CREATE TABLE stranger (x); INSERT INTO stranger VALUES ('keep me')") }
            // Copied while its writer still holds it: the rows are in the WAL, as after a kill.
            try FileManager.default.copyItem(atPath: source, toPath: directory.path + "/" + name)
            try FileManager.default.copyItem(atPath: source + "-wal", toPath: directory.path + "/" + name + "-wal")
        }
        for file in [source, source + "-wal", source + "-shm"] { unlink(file) }
        refusedOpening(directory, naming: name, saying: "not an iapsim")
    }

    @Test("another party's file in a party's place is foreign (its application_id says whose it is)")
    func swapped() throws {
        let directory = try settledDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory.path) }
        try FileManager.default.removeItem(atPath: directory.store)
        try FileManager.default.copyItem(atPath: directory.backend, toPath: directory.store)
        refusedOpening(directory, naming: "store.sqlite", saying: "not an iapsim store")
    }

    @Test("a database from an earlier iapsim (application_id 0, iapsim's tables) is accepted and stamped")
    func legacyStamped() throws {
        let directory = try settledDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory.path) }
        for path in [directory.store, directory.backend, directory.keychain, directory.sandbox] {
            let queue = try DatabaseQueue(path: path)
            try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA application_id = 0") }
        }
        let app = try AppSession(directory: directory, catalog: shippedCatalog, user: "alice")
        app.advance(0.5)
        #expect(app.state.account.coins == 60)
        var ids: [Int32] = []
        for path in [directory.store, directory.backend, directory.keychain, directory.sandbox] {
            ids.append(try DatabaseQueue(path: path).read { try Int32.fetchOne($0, sql: "PRAGMA application_id") ?? 0 })
        }
        #expect(!ids.contains(0), "\(ids)")
        #expect(Set(ids).count == 4, "one identity per party: \(ids)")
    }

    @Test("a stored date that is not a finite number is a clear error naming the file, never a crash")
    func nonFiniteRow() throws {
        let directory = DataDirectory(path: temporary())
        defer { try? FileManager.default.removeItem(atPath: directory.path) }
        do {
            let app = try AppSession(directory: directory, catalog: shippedCatalog, faults: [.backendDown], user: "alice")
            app.advance(0.5)
            app.press(.enter)
            app.advance(3)
        }
        do {
            let queue = try DatabaseQueue(path: directory.store)
            try queue.write { try $0.execute(sql: "UPDATE storeTransaction SET date = 9e999") }
        }
        refusedOpening(directory, naming: "store.sqlite", saying: "date")
    }

    @Test("the store finished a purchase the backend has no credit for (a lost WAL): an alarm at launch, in both languages")
    func lostCredit() throws {
        let directory = try settledDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory.path) }
        let transaction = try #require(try StoreDatabase(path: directory.store).all().first?.transaction.id)
        do {
            let queue = try DatabaseQueue(path: directory.backend)
            try queue.write { try $0.execute(sql: "DELETE FROM credit") }
        }
        let app = try AppSession(directory: directory, catalog: shippedCatalog, user: "alice")
        app.advance(0.5)
        let alarm = try #require(app.state.alarms.first { $0.text(.en).contains(transaction) })
        #expect(alarm.text(.en).contains("no credit"))
        let finished = try StoreDatabase(path: directory.store).all().filter { $0.finished && [.purchased, .restored].contains($0.transaction.state) }.count
        #expect(alarm.text(.en).contains("1 of the store's latest \(finished) finished"), "\(alarm.text(.en))")
        #expect(alarm.text(.zh) != alarm.text(.en))
        #expect(app.screen().text.contains("ALARM"))
        // e explains this alarm: the alarms' card spoke only of failed verifications, 21004 and a failed write.
        #expect(app.state.visibleStateId == "credit-missing")
        app.press(.char("e"))
        #expect(app.screen().text.contains("Paid, never credited"), "\(app.screen().text)")
        app.press(.escape)
        // Reported to the backend with the moment it was raised, in UTC to the second, as ISO 8601 writes it.
        let reported = try #require(try app.parties.backend.database.clientAlarms().first { $0.kind == "credit-missing" })
        let raised = try Date(reported.raisedAt, strategy: .iso8601)
        #expect(reported.raisedAt == raised.ISO8601Format())
        #expect(abs(raised.timeIntervalSince(app.runtime.timers.now)) < 2, "\(reported.raisedAt)")
    }

    @Test("`state` reads without changing a byte, WAL files included, and refuses a path without iapsim data")
    func stateReadOnly() throws {
        let directory = DataDirectory(path: temporary())
        defer { try? FileManager.default.removeItem(atPath: directory.path) }
        let app = try AppSession(directory: directory, catalog: shippedCatalog, faults: [.backendDown], user: "alice")
        app.advance(0.5)
        app.press(.enter)
        app.advance(3)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names.contains("store.sqlite-wal"))
        // Every database and WAL file byte for byte, read-only readers included (see `kept`).
        let before = names.map { kept(directory.path + "/" + $0) }
        let report = try StateReport.json(for: directory, catalog: shippedCatalog)
        #expect(report.contains("\"pending\""))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == names)
        #expect(names.map { kept(directory.path + "/" + $0) } == before)

        let empty = temporary()
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        for path in [empty, empty + "/missing", directory.store] {
            #expect(throws: (any Error).self, "\(path)") { try StateReport.json(for: DataDirectory(path: path), catalog: shippedCatalog) }
        }
    }

    private let scratch = Scratch()

    private func catalog(_ entry: String) throws -> String {
        try scratch.write("{\"products\": [\(entry)]}", named: "catalog.json")
    }

    @Test("a catalog's values are checked: each a clear error naming the product and the field", arguments: [
        (#""coins": -60, "price": "¥6", "title": {"en": "X", "zh": "X"}"#, "coins"),
        (#""coins": 99999999999999999999, "price": "¥6", "title": {"en": "X", "zh": "X"}"#, "coins"),
        (#""coins": 9223372036854775807, "price": "¥6", "title": {"en": "X", "zh": "X"}"#, "coins"),
        (#""coins": 60, "price": "¥-6", "title": {"en": "X", "zh": "X"}"#, "price"),
        (#""coins": 60, "price": "-6", "title": {"en": "X", "zh": "X"}"#, "price"),
        (#""coins": 60, "price": "", "title": {"en": "X", "zh": "X"}"#, "price"),
        (#""coins": 60, "price": "¥6", "title": {"en": "", "zh": "X"}"#, "title"),
        (#""coins": 60, "price": "¥6", "title": {"en": "X", "zh": "  "}"#, "title"),
    ])
    func catalogValues(_ fields: String, _ field: String) throws {
        let path = try catalog(#"{"id": "coins.60", "type": "consumable", "# + fields + #", "description": {"en": "d", "zh": "d"}}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try CatalogLoader.load(path: path)
            Issue.record("accepted \(fields)")
        } catch {
            let text = "\(error)"
            #expect(text.contains("coins.60"), "\(text)")
            #expect(text.contains(".\(field)"), "\(text)")
            #expect(!text.contains("not valid JSON"), "\(text)")
        }
    }

    @Test("a catalog path that is a folder says so")
    func catalogFolder() {
        let folder = FileManager.default.temporaryDirectory.path
        do {
            _ = try CatalogLoader.load(path: folder)
            Issue.record("a folder was read as a catalog")
        } catch {
            #expect("\(error)".contains("is a folder"), "\(error)")
            #expect(!"\(error)".contains("NSCocoaErrorDomain"))
        }
    }
}
