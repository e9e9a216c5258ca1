import Foundation
import IAPApp
import IAPCore
import Testing

/// The script steps subscriptions need: waits in days, what the store says of a subscription, what the backend grants.
@Suite("Script steps for subscriptions: wait in days, expect subscription, expect owned")
struct SubscriptionStepTests {
    private func step(_ line: String) throws -> Script.Step {
        try #require(try Script.parse(line, file: "t.iapsim").steps.first).step
    }

    private func refused(_ line: String, saying expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(sourceLocation: sourceLocation) { try Script.parse(line, file: "t.iapsim") } throws: { error in
            "\(error)".hasPrefix("t.iapsim:1: ") && "\(error)".contains(expected)
        }
    }

    private func play(_ text: String) throws -> ScriptPlayer.Outcome {
        let directory = DataDirectory(path: FileManager.default.temporaryDirectory.appendingPathComponent("iapsim-test-\(UUID().uuidString)").path)
        defer { try? FileManager.default.removeItem(atPath: directory.path) }
        return try ScriptPlayer(ScriptPlayer.Setup(directory: directory, catalog: shippedCatalog), output: { _ in })
            .play(try Script.parse(text, file: "t.iapsim"))
    }

    @Test("`wait` takes seconds, or minutes, hours and days, up to a year and a day")
    func waitUnits() throws {
        #expect(try step("wait 31d") == .wait(31 * 86_400))
        #expect(try step("wait 2h") == .wait(7_200))
        #expect(try step("wait 5m") == .wait(300))
        #expect(try step("wait 1.5s") == .wait(1.5))
        #expect(try step("wait 90") == .wait(90))
        #expect(try step("wait 366d") == .wait(366 * 86_400))
        #expect(try step("wait until Coins within 2m") == .waitUntil("Coins", within: 120))
        refused("wait 367d", saying: "0 to 31622400")
        refused("wait 3w", saying: "0 to ")
        refused("wait d", saying: "0 to ")
        refused("wait until Coins within 2h", saying: "0 to 3600")
    }

    @Test("`expect subscription [USER] PRODUCT STATE` and `expect [not] owned [USER] PRODUCT` parse; mistakes are refused")
    func parse() throws {
        #expect(try step("expect subscription com.iapsim.vip.monthly trial") == .expectSubscription(productId: "com.iapsim.vip.monthly", user: nil, .trial))
        #expect(try step("expect subscription bob com.iapsim.vip.plus billing-retry")
                == .expectSubscription(productId: "com.iapsim.vip.plus", user: "bob", .billingRetry))
        #expect(try step("expect subscription com.iapsim.vip.plus grace-period")
                == .expectSubscription(productId: "com.iapsim.vip.plus", user: nil, .gracePeriod))
        #expect(try step("expect subscription com.iapsim.vip.plus none") == .expectSubscription(productId: "com.iapsim.vip.plus", user: nil, nil))
        #expect(try step("expect owned com.iapsim.noads") == .expectOwned(productId: "com.iapsim.noads", user: nil, true))
        #expect(try step("expect not owned 小明 com.iapsim.noads") == .expectOwned(productId: "com.iapsim.noads", user: "小明", false))
        refused("expect subscription com.iapsim.vip.plus lapsed", saying: "active, trial, cancelled, grace-period, billing-retry, expired, revoked")
        refused("expect subscription com.iapsim.vip.plus", saying: "`expect subscription` takes")
        refused("expect subscription a b c d", saying: "`expect subscription` takes")
        refused("expect owned", saying: "`expect owned` takes [USER] PRODUCT")
        refused("expect not owned a b c", saying: "`expect not owned` takes")
        refused("expect subscription \(String(repeating: "a", count: 30)) com.iapsim.vip.plus active", saying: "user name")
    }

    @Test("the checks read the store and the backend: a mismatch fails at its line, naming what was found")
    func play() throws {
        let buyPlus = "launch alice\nwait until Coins\npress Down Down Down Down Down Down Down\npress Enter\nwait until \"Purchase complete\"\n"
        let cases: [(String, String?)] = [
            ("expect subscription com.iapsim.vip.plus active\nexpect owned com.iapsim.vip.plus\nexpect not owned bob com.iapsim.vip.plus\n"
             + "expect subscription com.iapsim.vip.yearly none\nexpect subscription bob com.iapsim.vip.plus none", nil),
            ("expect subscription com.iapsim.vip.plus trial", "subscription com.iapsim.vip.plus of alice: expected trial, found active"),
            ("expect not owned com.iapsim.vip.plus", "com.iapsim.vip.plus is owned by alice"),
            ("expect owned bob com.iapsim.vip.plus", "com.iapsim.vip.plus is not owned by bob"),
            ("expect owned com.iapsim.vip.platinum", "no product com.iapsim.vip.platinum in the catalog"),
            ("expect subscription com.iapsim.noads active", "com.iapsim.noads is not an auto-renewable subscription"),
            ("press Esc L\nexpect owned com.iapsim.vip.plus", "`expect owned` needs a user (nobody is logged in)"),
        ]
        for (checks, failure) in cases {
            let outcome = try play(buyPlus + checks)
            switch (outcome, failure) {
            case (.passed, nil): break
            case let (.failed(line, message), expected?):
                #expect(message == expected)
                #expect(line == 5 + checks.split(separator: "\n").count)
            case let (.failed(_, message), nil): Issue.record("failed: \(message)")
            case (.passed, _?): Issue.record("passed: \(checks)")
            }
        }
    }
}

/// From a QA walk: `iapsim play upgrade-mid-period` printed "1900802.5s  wait 15d", wider than its column, where the
/// inspector says "22d 00h".
@Suite("play's transcript dates a step as the inspector does")
struct TranscriptClockTests {
    /// The lines `script` prints, played on a folder of its own.
    private func transcript(of script: String) throws -> [String] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("iapsim-test-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var lines: [String] = []
        _ = try ScriptPlayer(ScriptPlayer.Setup(directory: DataDirectory(path: path), catalog: shippedCatalog)) { lines.append($0) }
            .play(try Script.parse(script, file: "t.iapsim"))
        return lines
    }

    @Test("past a day or so a step's time is days and hours, in the same eight columns")
    func daysAndHours() throws {
        let transcript = try transcript(of: "launch alice\nwait 2\nwait 7d\nwait 15d\n")
        let steps = transcript.filter { $0.contains("wait") }
        #expect(steps.map { String($0.prefix(8)) } == ["    2.0s", "  7d 00h", " 22d 00h"], "\(steps)")
    }

    /// From the same walk: the screen came before its `snapshot` line, so it read as what the step before it did.
    @Test("a snapshot's screen follows its own line")
    func snapshotAfterItsLine() throws {
        let transcript = try transcript(of: "launch alice\nwait until Coins\nsnapshot shop\n")
        let line = try #require(transcript.firstIndex { $0.hasSuffix("snapshot shop") })
        let screen = try #require(transcript.firstIndex { $0.contains("60 Coins") })
        #expect(line < screen, "\(transcript)")
    }
}
