import Foundation
import Testing

@Suite("A dead app leaves nothing open")
struct RelaunchLeakTests {
    /// Work still pending when an app is dropped (a kill, a relaunch) held the parties, which hold the timer queue:
    /// each such schedule kept a dead app's databases open, and a long QA run ran out of file descriptors.
    @Test("schedules full of kills and relaunches close every database they open")
    func relaunchesCloseTheDeadApp() throws {
        func openFiles() -> Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0 }
        let before = openFiles()
        for seed in UInt64(0)..<12 { _ = try explore(seed: seed) }
        #expect(openFiles() <= before, "\(openFiles() - before) files left open by 12 schedules")
    }
}
