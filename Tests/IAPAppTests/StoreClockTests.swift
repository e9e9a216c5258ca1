import Foundation
import GRDB
import IAPApp
import IAPCore
import Testing

/// The store's clock runs on the app's (`t`, `--speed`, scripts move it ahead of the wall), and what it did stays done:
/// a new run of the app never starts it again before the last moment it acted.
@Suite("The store's clock never runs back across runs")
struct StoreClockTests {
    @Test("a live run after one that skipped months ahead starts where the store last acted, not at the wall's time")
    func liveRunResumesTheStoresClock() throws {
        let directory = DataDirectory(path: FileManager.default.temporaryDirectory.appendingPathComponent("iapsim-test-\(UUID().uuidString)").path)
        defer { try? FileManager.default.removeItem(atPath: directory.path) }
        let ahead = Date().addingTimeInterval(400 * 86_400)  // as if `t` had skipped past a year's renewals
        let first = try AppSession(directory: directory, catalog: shippedCatalog, user: "alice", clock: .virtual(start: ahead))
        first.advance(0.5)
        let index = shippedCatalog.firstIndex { $0.id == "com.iapsim.vip.monthly" }!
        for _ in 0..<index { first.press(.down) }
        first.press(.enter)
        first.advance(5)
        let acted = first.timers.now
        try first.close()

        let next = try AppSession(directory: directory, catalog: shippedCatalog, user: "alice", clock: .live(speed: 1))
        defer { try? next.close() }
        #expect(next.timers.now >= acted.addingTimeInterval(-5))
        // What the store does now comes after what it did: a purchase is not dated before the subscription it joins.
        next.press(.escape)
        for _ in 0..<shippedCatalog.count { next.press(.up) }
        next.press(.enter)
        #expect(next.timers.now >= acted.addingTimeInterval(-5))
    }

    @Test("quitting writes the store's clock down only when it ran ahead of the wall: on the wall's time the next run starts later anyway, and the quit costs no commit")
    func quitNotesTheClockOnlyWhenAhead() throws {
        for (speed, noted) in [(1.0, false), (2.0, true)] {
            let directory = DataDirectory(path: FileManager.default.temporaryDirectory.appendingPathComponent("iapsim-test-\(UUID().uuidString)").path)
            defer { try? FileManager.default.removeItem(atPath: directory.path) }
            let session = try AppSession(directory: directory, catalog: shippedCatalog, user: "alice", clock: .live(speed: speed))
            try session.close()
            let clock = try DatabaseQueue(path: directory.store).read { try String.fetchOne($0, sql: "SELECT value FROM meta WHERE key = 'clock'") }
            #expect((clock != nil) == noted, "speed \(speed)")
        }
    }
}
