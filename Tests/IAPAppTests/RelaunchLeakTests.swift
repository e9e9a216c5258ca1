import Foundation
import Testing

@Suite("A dead app leaves nothing open")
struct RelaunchLeakTests {
    /// Work still pending when an app is dropped (a kill, a relaunch) held the parties, which hold the timer queue:
    /// each such schedule kept a dead app's databases open, and a long QA run ran out of file descriptors.
    /// Other tests run beside this one, so only what a leak leaves is counted: files still open in a test folder
    /// that was already deleted.
    @Test("schedules full of kills and relaunches close every database they open")
    func relaunchesCloseTheDeadApp() throws {
        for seed in UInt64(0)..<12 { _ = try explore(seed: seed) }
        func deletedButOpen() -> Set<String> {
            let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            return Set(fds.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0) }
                .filter { $0.contains("iapsim-test-") && $0.hasSuffix("(deleted)") })
        }
        // A harness of another test may be between deleting its folder and closing its files: a leak stays.
        let first = deletedButOpen()
        Thread.sleep(forTimeInterval: 0.3)
        let leaked = first.intersection(deletedButOpen())
        #expect(leaked.isEmpty, "\(leaked.count) files of deleted test folders still open, e.g. \(leaked.sorted().prefix(2))")
    }
}
