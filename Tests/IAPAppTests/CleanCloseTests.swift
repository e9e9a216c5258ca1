import DataFiles
import Foundation
import GRDB
import IAPApp
import IAPCore
import Testing

/// A party file iapsim closed cleanly, and nobody touched since, skips its checks at the next open; anything that
/// touched it brings them back.
@Suite("Clean close: a file as iapsim left it skips its checks, a touched one does not")
struct CleanCloseTests {
    private func temporary() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("iapsim-test-\(UUID().uuidString)").path
    }

    /// A claimed data directory where alice bought 60 coins, its session closed as quitting closes it, and recorded.
    private func closedCleanly() throws -> DataDirectory {
        let directory = DataDirectory(path: temporary())
        // The claim makes the lock file the record is kept in; its descriptor is closed again (a leak test counts them).
        let claim = try #require(try directory.claim())
        defer { close(claim.lock) }
        let app = try AppSession(directory: directory, catalog: shippedCatalog, user: "alice")
        app.advance(0.5)
        app.press(.enter)
        app.settle()
        try app.close()
        directory.recordClosedCleanly(directory)
        return directory
    }

    @Test("quitting records every party file, and a write moves the file's stamp")
    func recorded() throws {
        let directory = try closedCleanly()
        defer { try? FileManager.default.removeItem(atPath: directory.path) }
        let files = [directory.store, directory.backend, directory.keychain, directory.sandbox]
        #expect(directory.closedCleanly() == Set(files.compactMap(FileStamp.init(path:))))
        #expect(directory.closedCleanly().count == 4)
        try DatabaseQueue(path: directory.backend).write { try $0.execute(sql: "UPDATE orders SET createdAt = createdAt + 1") }
        #expect(FileStamp(path: directory.backend).map(directory.closedCleanly().contains) != true)
    }

    @Test("a clean close keeps each file's WAL, emptied, and shared-memory file beside it, so that the next launch opens them rather than making both anew and removing them again at its quit; a WAL that still holds pages is no clean close")
    func sideFilesKept() throws {
        let directory = try closedCleanly()
        defer { try? FileManager.default.removeItem(atPath: directory.path) }
        let files = [directory.store, directory.backend, directory.keychain, directory.sandbox]
        func identity(_ path: String) -> (inode: UInt64, size: Int64)? {
            var info = stat()
            return stat(path, &info) == 0 ? (UInt64(info.st_ino), Int64(info.st_size)) : nil
        }
        for file in files {
            #expect(identity(file + "-wal")?.size == 0, "\(file)-wal")
            #expect(identity(file + "-shm") != nil, "\(file)-shm")
        }
        let sideFiles = files.flatMap { [$0 + "-wal", $0 + "-shm"] }
        let before = sideFiles.map { identity($0)?.inode }
        DataFile.trust(directory.closedCleanly())
        let app = try AppSession(directory: directory, catalog: shippedCatalog, user: "alice")
        app.advance(0.5)
        app.press(.enter)
        app.settle()
        // Bought and not closed, as a kill leaves it: the store's WAL holds the purchase, and the file is not clean.
        #expect((identity(directory.store + "-wal")?.size ?? 0) > 0)
        #expect(FileStamp(path: directory.store) == nil)
        try app.close()
        #expect(sideFiles.map { identity($0)?.inode } == before)
        #expect(FileStamp(path: directory.store) != nil)
        #expect(app.state.account.coins == 120)
    }

    @Test("`state` on a folder no iapsim has open changes not a byte of any file beside the databases (their kept WAL and shared-memory files included) nor their change times (found in a QA walk: each -shm was rewritten and each -wal's change time moved)")
    func stateTouchesNothingWhenClosed() throws {
        let directory = try closedCleanly()
        defer { try? FileManager.default.removeItem(atPath: directory.path) }
        let names = try FileManager.default.subpathsOfDirectory(atPath: directory.path).sorted()
        #expect(names.contains("store.sqlite-shm"))
        func look() -> [String] {
            names.map { name in
                var info = stat()
                stat(directory.path + "/" + name, &info)
                let bytes = FileManager.default.contents(atPath: directory.path + "/" + name)?.hashValue ?? 0
                return "\(name) \(bytes) \(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
            }
        }
        let before = look()
        usleep(20_000)
        let report = try StateReport.json(for: directory, catalog: shippedCatalog)
        #expect(report.contains("com.iapsim.coins.60"))
        #expect(try FileManager.default.subpathsOfDirectory(atPath: directory.path).sorted() == names)
        #expect(look() == before)
    }

    @Test("the record is written over the one before, however long that was: nothing of the old one is left")
    func recordReplacesALongerOne() throws {
        let directory = try closedCleanly()
        defer { try? FileManager.default.removeItem(atPath: directory.path) }
        let record = try #require(FileManager.default.contents(atPath: (directory.path + "/iapsim.lock")))
        try (record + Data(String(repeating: "an older, longer record\t1\t2\t3\t4\t5\n", count: 20).utf8)).write(to: URL(fileURLWithPath: (directory.path + "/iapsim.lock")))
        directory.recordClosedCleanly(directory)
        #expect(FileManager.default.contents(atPath: (directory.path + "/iapsim.lock")) == record)
    }

    @Test("a file damaged after a clean close is still caught at open")
    func damagedAfterwards() throws {
        let directory = try closedCleanly()
        defer { try? FileManager.default.removeItem(atPath: directory.path) }
        DataFile.trust(directory.closedCleanly())
        var data = try #require(FileManager.default.contents(atPath: directory.backend))
        for i in (4096 + 8)..<min(4096 + 3008, data.count) { data[i] = UInt8.random(in: 0...255) }
        try data.write(to: URL(fileURLWithPath: directory.backend))
        #expect(throws: (any Error).self) { _ = try AppSession(directory: directory, catalog: shippedCatalog, user: "alice") }
    }

    @Test("a file whose stamp is trusted is opened as it is: its checks are skipped")
    func trustedSkipsChecks() throws {
        let directory = try closedCleanly()
        defer { try? FileManager.default.removeItem(atPath: directory.path) }
        // Stamped as the store's file, the backend's would be refused by the checks; stamping it afterwards trusts it anyway.
        try DatabaseQueue(path: directory.backend).writeWithoutTransaction { try $0.execute(sql: "PRAGMA application_id = 1767985969") }
        #expect(throws: (any Error).self) { _ = try AppSession(directory: directory, catalog: shippedCatalog, user: "alice") }
        DataFile.trust([try #require(FileStamp(path: directory.backend))])
        let app = try AppSession(directory: directory, catalog: shippedCatalog, user: "alice")
        app.advance(0.5)
        #expect(app.state.account.coins == 60)
    }

    @Test("a trusted file an older iapsim closed cleanly still gets the migrations it lacks")
    func trustedOlderFileIsMigrated() throws {
        let directory = try closedCleanly()
        defer { try? FileManager.default.removeItem(atPath: directory.path) }
        // The sandbox as before its only migration, closed cleanly by that older iapsim.
        try DatabaseQueue(path: directory.sandbox).write { db in
            try db.execute(sql: "DROP TABLE session")
            try db.execute(sql: "DELETE FROM grdb_migrations")
        }
        directory.recordClosedCleanly(directory)
        DataFile.trust(directory.closedCleanly())
        #expect(directory.closedCleanly().contains { $0 == FileStamp(path: directory.sandbox) })
        let app = try AppSession(directory: directory, catalog: shippedCatalog)
        app.advance(0.5)
        try app.close()
        let tables = try DatabaseQueue(path: directory.sandbox).read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") }
        #expect(tables.contains("session"))
    }
}
