import Foundation
import IAPApp
import IAPCore
import LaunchOptions
import Launcher
import Testing

/// Issue 28, item 1: the StoreKit the client is written against is chosen at launch (`--storekit`, a script's
/// `# storekit:`), said on the badge line, and kept by the app's own relaunches, nowhere on disk.
@Suite("StoreKit mode: chosen at launch, shown on the badge line")
struct StoreKitModeTests {
    private func play(_ text: String, options: AppState = AppState()) throws -> (ScriptPlayer.Outcome, String) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("iapsim-play-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var transcript = ""
        let setup = ScriptPlayer.Setup(directory: DataDirectory(path: path), catalog: shippedCatalog, options: options)
        let outcome = try ScriptPlayer(setup) { transcript += $0 + "\n" }.play(try Script.parse(text, file: "t.iapsim"))
        return (outcome, transcript)
    }

    private func passes(_ text: String, options: AppState = AppState(), sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (outcome, transcript) = try play(text, options: options)
        guard case .passed = outcome else {
            Issue.record("failed:\n\(transcript)", sourceLocation: sourceLocation)
            return
        }
    }

    @Test("`# storekit: 2` runs the script in StoreKit 2, said on the badge line, also after a relaunch")
    func scriptHeader() throws {
        try passes("""
            # storekit: 2
            launch alice
            wait until Coins
            expect screen "StoreKit 2"
            crash
            relaunch
            wait until Coins
            expect screen "StoreKit 2"
            """)
    }

    @Test("StoreKit 1 is the default and says nothing on the badge line")
    func defaultIsOne() throws {
        try passes("""
            launch alice
            wait until Coins
            expect no screen "StoreKit"
            """)
    }

    @Test("the player's mode runs a script without a `# storekit:` line; the line wins over it")
    func headerWins() throws {
        let two = AppState(storeKit: .two)
        try passes("launch alice\nwait until Coins\nexpect screen \"StoreKit 2\"\n", options: two)
        try passes("# storekit: 1\nlaunch alice\nwait until Coins\nexpect no screen \"StoreKit\"\n", options: two)
    }

    @Test("a `# storekit:` that is not 1 or 2 is refused at its line", arguments: ["3", "two", ""])
    func badHeader(_ value: String) {
        do {
            _ = try Script.parse("# name: x\n# storekit: \(value)\nlaunch alice\n", file: "t.iapsim")
            Issue.record("accepted storekit \(value)")
        } catch {
            #expect("\(error)".hasPrefix("t.iapsim:2:"), "\(error)")
            #expect("\(error)".contains("is not a StoreKit version; give 1 or 2"), "\(error)")
        }
    }

    @Test("`--storekit 2` reads the same on a plain launch as through ArgumentParser")
    func plainLaunch() throws {
        for arguments in [["--storekit", "2"], ["--storekit=1", "--user", "alice"]] {
            let plain = try #require(LaunchSettings(plain: arguments))
            #expect(plain.storeKit == (try RunOptions.parse(arguments)).settings.storeKit)
        }
        #expect(LaunchSettings(plain: ["--storekit"]) == nil)
    }
}
