import Foundation
import IAPApp
import IAPCore
import Testing

/// Scripts (issue 12, defects 1, 2 and 4): every bad script is refused at its line with a clear message,
/// and no script passes without running.
@Suite("Scripts: bad input is refused at its line, nothing passes without running")
struct ScriptInputTests {
    private func refused(_ text: String, saying expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            let script = try Script.parse(text, file: "t.iapsim")
            Issue.record("accepted: \(script.steps.map(\.text))", sourceLocation: sourceLocation)
        } catch {
            #expect("\(error)".hasPrefix("t.iapsim:"), "\(error)", sourceLocation: sourceLocation)
            #expect("\(error)".contains(expected), "\(error)", sourceLocation: sourceLocation)
        }
    }

    @Test("a snapshot's name is a plain name: it names a file in --snapshots, never one outside it (found by QA: ../../escape wrote above it)",
          arguments: ["snapshot ../../escape", "snapshot a/b", "snapshot .hidden"])
    func snapshotNamePlain(_ text: String) {
        refused(text, saying: "not a plain name")
    }

    @Test("a user name with a space, which the app's login takes, is written in quotes at every step that names a user, taken as written (found in a QA walk: launch, relaunch and device refused it)")
    func quotedUserNames() throws {
        let script = try Script.parse("""
            launch "Max S"
            relaunch "Max S"
            device tab "Max S"
            login "Ann  Lee"
            wait until "Max S"
            """, file: "t.iapsim")
        #expect(script.steps.map(\.step) == [.launch(user: "Max S"), .relaunch(user: "Max S"), .device("tab", user: "Max S"),
                                             .login("Ann  Lee"), .waitUntil("Max S", within: 120)])
        refused("launch \"Max S", saying: "unterminated quote")
        refused("device tab \"Max S\" extra", saying: "`device` takes a device name")
    }

    @Test("Windows line endings (CRLF) and old Mac ones (CR) are lines, as Unix ones are")
    func crlf() throws {
        let unix = "# name: x\nlaunch alice\nwait until Coins\nexpect coins alice 60\n"
        for text in [unix.replacingOccurrences(of: "\n", with: "\r\n"), unix.replacingOccurrences(of: "\n", with: "\r")] {
            let script = try Script.parse(text, file: "t.iapsim")
            #expect(script.name == "x")
            #expect(script.steps.map(\.text) == ["launch alice", "wait until Coins", "expect coins alice 60"])
            #expect(script.steps.map(\.number) == [2, 3, 4])
        }
    }

    @Test("a CRLF script with a failing expectation fails at that line")
    func crlfRuns() throws {
        let script = try Script.parse("launch alice\r\nwait until Coins\r\nexpect coins alice 60\r\n", file: "t.iapsim")
        let directory = DataDirectory(path: FileManager.default.temporaryDirectory.appendingPathComponent("iapsim-test-\(UUID().uuidString)").path)
        defer { try? FileManager.default.removeItem(atPath: directory.path) }
        let outcome = try ScriptPlayer(ScriptPlayer.Setup(directory: directory, catalog: shippedCatalog), output: { _ in }).play(script)
        guard case let .failed(line, _) = outcome else { Issue.record("passed without running"); return }
        #expect(line == 3)
    }

    @Test("a script without a single step is refused, not passed")
    func empty() {
        refused("", saying: "no steps")
        refused("# name: nothing\n# only comments\n\n", saying: "no steps")
    }

    @Test("`press` needs at least one key")
    func pressNothing() {
        refused("press", saying: "`press` needs")
        refused("press   ", saying: "`press` needs")
    }

    @Test("`redeem` takes a code, or `one-time` and an offer of one-time codes")
    func redeemSteps() throws {
        let script = try Script.parse("redeem VIPSPRING\nredeem one-time VIP_PRESS\n", file: "t.iapsim")
        #expect(script.steps.map(\.step) == [.redeem("VIPSPRING"), .redeemOneTime(offerId: "VIP_PRESS")])
        refused("redeem", saying: "`redeem` takes an offer code")
        refused("redeem one-time", saying: "or `one-time` and an offer of one-time codes")
        refused("redeem a b c", saying: "or `one-time` and an offer of one-time codes, e.g. `redeem one-time VIP_PRESS`")
    }

    @Test("`refund` and `refund-decline` take a transaction id and the customer's reason, `refund-reverse` an id alone")
    func refundDecisions() throws {
        refused("refund-decline 10x", saying: "`refund-decline` takes at most a transaction id (digits) and the customer's reason "
                + "(unintended-purchase, fulfillment-issue, unsatisfied-with-purchase, legal, other), e.g. `refund-decline 1000000001 unintended-purchase`")
        refused("refund 1 legal other", saying: "`refund` takes at most a transaction id (digits) and the customer's reason")
        refused("refund-reverse 1 2", saying: "`refund-reverse` takes at most a transaction id")
        let script = try Script.parse("refund-decline 1000000001\nrefund-reverse\nrefund LEGAL\nrefund 7 fulfillment-issue\n", file: "t.iapsim")
        #expect(script.steps.map(\.step) == [.refundDecision(.decline, "1000000001", because: .OTHER), .refundDecision(.reverse, nil, because: .OTHER),
                                             .refund(nil, because: .LEGAL), .refund("7", because: .FULFILLMENT_ISSUE)])
    }

    @Test("`press @command` presses whichever key the command is bound to; an unknown name lists the names")
    func pressCommand() throws {
        let script = try Script.parse("""
            launch alice
            wait until Coins
            press @toggle-backend
            expect screen "backend down"
            press @toggle-backend
            expect no screen "backend down"
            press @inspector
            expect screen "Timeline"
            """, file: "t.iapsim")
        let directory = DataDirectory(path: FileManager.default.temporaryDirectory.appendingPathComponent("iapsim-test-\(UUID().uuidString)").path)
        defer { try? FileManager.default.removeItem(atPath: directory.path) }
        let outcome = try ScriptPlayer(ScriptPlayer.Setup(directory: directory, catalog: shippedCatalog), output: { _ in }).play(script)
        if case let .failed(line, message) = outcome { Issue.record("failed at line \(line): \(message)") }
        refused("press @toggle-the-backend", saying: "@toggle-backend")
    }

    @Test("an unterminated quote is an error, not part of the text", arguments: [
        "expect screen \"Coins", "expect no screen \"Coins", "wait until \"Coins", "expect screen Coins\"",
    ])
    func unterminatedQuote(_ line: String) {
        refused("launch\n" + line, saying: "quote")
    }

    @Test("seconds are finite and in range, the range in the message", arguments: [
        "wait inf", "wait nan", "wait 1e308", "wait -1", "wait infinity", "wait until Coins within 100000000",
        "wait until Coins within inf", "wait until Coins within nan", "wait 31622401",
    ])
    func seconds(_ line: String) {
        refused("launch\n" + line, saying: "0 to ")
    }

    @Test("a fault's value from a script is checked as a flag's is", arguments: [
        "fault backend-slow=inf", "fault backend-slow=nan", "fault backend-slow=-1", "fault products-slow=1e308",
        "fault backend-5xx=42", "fault verification-pending=1e9", "fault observer-delayed=Infinity",
        // Written in decimal digits, as a wait is (found by QA: refund=1e3 was taken, wait 1e3 refused).
        "fault backend-slow=1e1", "fault products-slow=2E0",
    ])
    func faultValues(_ line: String) {
        refused(line, saying: " to ")
    }

    @Test("a scenario's name is a plain name: no folders, no way out of the data directory", arguments: [
        "../../victim", "a/b", "/tmp/x", "..", ".", ".hidden", "a\\b", "",
    ])
    func scenarioName(_ name: String) {
        refused("# name: \(name)\nlaunch\n", saying: "name")
    }

    @Test("user names in scripts follow the login rule", arguments: [
        "launch " + String(repeating: "a", count: 25), "login " + String(repeating: "b", count: 200),
        "switch-user " + String(repeating: "c", count: 30), "relaunch " + String(repeating: "d", count: 25),
    ])
    func userNames(_ line: String) {
        refused(line, saying: "user name")
    }
}

extension ScriptInputTests {
    @Test("select picks a product by kind, so a script runs on any catalog that has one, and says which kind is missing")
    func selectByKind() throws {
        let script = try Script.parse("""
            launch alice
            select non-consumable 2
            expect screen "▸ Ink Theme"
            select subscription
            expect screen "▸ Monthly VIP"
            """, file: "t.iapsim")
        let directory = DataDirectory(path: FileManager.default.temporaryDirectory.appendingPathComponent("iapsim-test-\(UUID().uuidString)").path)
        defer { try? FileManager.default.removeItem(atPath: directory.path) }
        let outcome = try ScriptPlayer(ScriptPlayer.Setup(directory: directory, catalog: shippedCatalog), output: { _ in }).play(script)
        if case let .failed(line, message) = outcome { Issue.record("failed at line \(line): \(message)") }
        let onlyCoins = shippedCatalog.filter(\.kind.isConsumable)
        let missing = try ScriptPlayer(ScriptPlayer.Setup(directory: directory, catalog: onlyCoins), output: { _ in })
            .play(try Script.parse("launch bob\nselect subscription\n", file: "t.iapsim"))
        guard case let .failed(_, message) = missing else { Issue.record("selected a subscription in a catalog without one"); return }
        #expect(message.contains("no subscription product"))
        refused("launch\nselect gadget", saying: "product kind")
        refused("launch\nselect consumable 0", saying: "1 to 1000")
    }
}

extension ScriptInputTests {
    @Test("a step's extra words are an error at its line, not dropped", arguments: [
        ("wait 1 d", "one number"), ("wait 5 minutes", "one number"), ("skip 5", "`skip` takes nothing"),
        ("crash now", "`crash` takes nothing"), ("handover please", "`handover` takes nothing"), ("restore all", "`restore` takes nothing"),
        ("reinstall app", "`reinstall` takes nothing"), ("compensate ORD-1", "`compensate` takes nothing"),
        ("launch alice bob", "`launch` takes at most a user name"), ("relaunch alice bob", "`relaunch` takes at most a user name"),
    ])
    func extraWords(_ line: String, _ expected: String) {
        refused("launch\n" + line, saying: expected)
    }

    @Test("seconds are written in decimal digits, an optional unit after them", arguments: ["wait 0x10", "wait 1e3", "wait 1_000", "wait +5", "wait .", "wait 5ms"])
    func decimalSeconds(_ line: String) {
        refused("launch\n" + line, saying: "0 to ")
    }

    @Test("seconds with a unit still read as before", arguments: [("wait 31d", 2_678_400.0), ("wait 1.5m", 90), ("wait 2h", 7_200), ("wait 10", 10), ("wait 0.25s", 0.25)])
    func secondsWithUnits(_ line: String, _ seconds: Double) throws {
        let script = try Script.parse(line, file: "t.iapsim")
        #expect(script.steps.first?.step == .wait(seconds))
    }

    @Test("a bad user name in device, assign and expect says what is wrong with the name", arguments: [
        "device tablet " + String(repeating: "a", count: 25), "assign 1000000001 " + String(repeating: "a", count: 25),
        "expect credits " + String(repeating: "a", count: 25) + " 1",
    ])
    func userNamesInSupportSteps(_ line: String) {
        refused("launch\n" + line, saying: "user name")
    }

    @Test("assign names a transaction by its id, digits")
    func assignTransactionId() {
        refused("launch\nassign tx1 alice", saying: "transaction id (digits)")
    }

    @Test("select before any product list is shown fails, saying why")
    func selectOverTheLoginScreen() throws {
        let script = try Script.parse("launch\nselect consumable\n", file: "t.iapsim")
        let directory = DataDirectory(path: FileManager.default.temporaryDirectory.appendingPathComponent("iapsim-test-\(UUID().uuidString)").path)
        defer { try? FileManager.default.removeItem(atPath: directory.path) }
        let outcome = try ScriptPlayer(ScriptPlayer.Setup(directory: directory, catalog: shippedCatalog), output: { _ in }).play(script)
        guard case let .failed(line, message) = outcome else {
            Issue.record("select passed over the login screen")
            return
        }
        #expect(line == 2)
        #expect(message.contains("login"), "\(message)")
    }
}

extension ScriptInputTests {
    @Test("a fault cleared while the app is crashed is cleared for the relaunched app; one armed then is armed")
    func faultsChangedWhileCrashed() throws {
        let script = try Script.parse("""
            fault backend-down
            launch alice
            expect screen "backend down"
            crash
            clear backend-down
            fault receipt-empty
            relaunch
            expect no screen "backend down"
            expect screen "receipt-empty"
            """, file: "t.iapsim")
        let directory = DataDirectory(path: FileManager.default.temporaryDirectory.appendingPathComponent("iapsim-test-\(UUID().uuidString)").path)
        defer { try? FileManager.default.removeItem(atPath: directory.path) }
        let outcome = try ScriptPlayer(ScriptPlayer.Setup(directory: directory, catalog: shippedCatalog), output: { _ in }).play(script)
        if case let .failed(line, message) = outcome { Issue.record("failed at line \(line): \(message)") }
    }
}

extension ScriptInputTests {
    @Test("an empty or blank user name is refused at its line, quoted or not", arguments: [
        #"launch """#, #"relaunch """#, #"switch-user """#, #"switch-user "  ""#, #"device phone2 """#, #"assign 1000000001 """#,
        #"expect credits "" 1"#, #"expect pending "" 0"#, #"expect owned "" com.iapsim.noads"#, #"login """#,
    ])
    func blankUserNames(_ line: String) {
        refused("launch\n" + line, saying: "user name")
    }

    @Test("counts and within are checked where they are written, the value in the message", arguments: [
        ("expect credits bob 1.5", "1.5"), ("expect coins bob -1", "-1"), ("wait until Coins within 1e3", "`within`"),
        ("wait until Coins within 5 s", "`within`"), (#"device "bad name" alice"#, "\"bad"),
    ])
    func countsAndWithin(_ line: String, _ expected: String) {
        refused("launch\n" + line, saying: expected)
    }
}
