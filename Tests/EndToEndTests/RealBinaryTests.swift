import Foundation
import Testing

/// The real binary, driven by keystrokes in tmux, judged by `iapsim state`.
@Suite("The real binary under tmux")
struct RealBinaryTests {
    /// Runs a scenario of drive.sh and returns what `iapsim state` printed afterwards.
    private func play(_ scenario: String, _ extra: [String] = []) async throws -> [String: Any] {
        let work = try makeWorkDirectory()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let log = work + "/drive.log"
        let script = repositoryRoot.appendingPathComponent("Tests/EndToEndTests/drive.sh").path
        let status = try await spawn(["bash", script, scenario, builtBinary, work] + extra, output: log)
        let transcript = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        try #require(status == 0, "drive.sh \(scenario) failed:\n\(transcript)")
        let data = try Data(contentsOf: URL(fileURLWithPath: work + "/state.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    private func settled(_ state: [String: Any], user: String) async throws {
        let store = try #require((state["store"] as? [String: Any])?["transactions"] as? [[String: Any]])
        let credits = try #require((state["backend"] as? [String: Any])?["credits"] as? [[String: Any]])
        let users = try #require((state["client"] as? [String: Any])?["users"] as? [String: Any])
        #expect(store.count == 1)
        #expect(store.first?["state"] as? String == "purchased")
        #expect(store.first?["finished"] as? Bool == true)
        #expect(credits.count == 1)
        #expect(credits.first?["user"] as? String == user)
        #expect(credits.first?["transactionId"] as? String == store.first?["transactionId"] as? String)
        let pending = (users[user] as? [String: Any])?["pending"] as? [Any] ?? []
        #expect(pending.isEmpty)
    }

    @Test("on a new data folder the phone has Apple ID sandbox-1 signed in; log in, buy the first product, see the three HUD states, quit: one credit, finished, nothing pending")
    func buy() async throws {
        let state = try await play("buy")
        try await settled(state, user: "alice")
        let appleIds = (state["store"] as? [String: Any])?["appleIds"] as? [String: Any]
        #expect((appleIds?["sandbox-1"] as? [String: Any])?["signedInOn"] as? [String] == ["phone"])
        #expect(((state["store"] as? [String: Any])?["transactions"] as? [[String: Any]])?.first?["account"] as? String == "sandbox-1")
    }

    @Test("buy with the backend down, kill -9 while pending, relaunch, Continue: one credit, nothing pending")
    func killAndRecover() async throws {
        try await settled(try await play("kill-and-recover"), user: "alice")
    }

    @Test("--serve 0: the badge line says where, a Server API call without a token is refused 401 and shows on the inspector's timeline, and the purchase made on screen settles as without it")
    func serve() async throws {
        try await settled(try await play("serve"), user: "alice")
    }

    @Test("alice's pending order never prompts, verifies or credits under bob, and is credited to alice when she returns")
    func switchUser() async throws {
        try await settled(try await play("switch-user"), user: "alice")
    }

    @Test("under LANG=C the app draws in ASCII (frames, cursor, CNY prices, Chinese in pinyin) instead of dropping characters, and a purchase goes through")
    func asciiTerminal() async throws {
        try await settled(try await play("lang-c"), user: "alice")
    }

    @Test("a .storekit file's settings arm their faults at launch (badges on screen) and its warnings are said on stderr")
    func storeKitSettings() async throws {
        let fixture = repositoryRoot.appendingPathComponent("Tests/EndToEndTests/StoreKitFixtures/v3-settings.storekit").path
        _ = try await play("storekit-settings", [fixture])
    }

    @Test("a renewal that happened while the app was closed reaches bob's launch, survives kill -9, and is credited once to alice, the subscriber")
    func renewalKilled() async throws {
        let state = try await play("renewal-killed")
        let store = try #require((state["store"] as? [String: Any])?["transactions"] as? [[String: Any]])
        let credits = try #require((state["backend"] as? [String: Any])?["credits"] as? [[String: Any]])
        #expect(store.count == 2)
        #expect(store.allSatisfy { $0["state"] as? String == "purchased" && $0["finished"] as? Bool == true })
        #expect(credits.count == 2)
        #expect(credits.allSatisfy { $0["user"] as? String == "alice" })
        #expect(Set(credits.compactMap { $0["transactionId"] as? String }) == Set(store.compactMap { $0["transactionId"] as? String }))
    }

    @Test("a crash on purpose in a Chinese session is said in Chinese once the terminal is given back, the payment left unfinished for the next launch (found in a QA walk: it was English)")
    func crashSaidInChinese() async throws {
        let state = try await play("crash-zh")
        let store = try #require((state["store"] as? [String: Any])?["transactions"] as? [[String: Any]])
        #expect(store.count == 1 && store.first?["finished"] as? Bool == false, "\(store)")
    }

    @Test("the fault panel arms crash-at by keyboard, the app really dies before verifying, and the relaunch credits once")
    func panelCrash() async throws {
        try await settled(try await play("panel-crash"), user: "alice")
    }

    @Test("the live screen and `iapsim play`'s are the same screen for the same keys, inspector included (the timeline's times aside)")
    func headlessEqualsLive() async throws {
        let work = try makeWorkDirectory()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let script = repositoryRoot.appendingPathComponent("Tests/EndToEndTests/drive.sh").path
        try #require(try await spawn(["bash", script, "inspector", builtBinary, work], output: work + "/drive.log") == 0,
                     "\((try? String(contentsOfFile: work + "/drive.log", encoding: .utf8)) ?? "")")
        // A script's world is what it says: the Apple ID a new data folder's phone signs in at launch, it signs in itself.
        try """
            launch alice
            apple-id sandbox-1
            wait until "60 Coins"
            press Enter
            wait until "Purchase complete"
            wait until "Balance 60 coins"
            press Esc i
            snapshot inspector
            """.write(toFile: work + "/same.iapsim", atomically: true, encoding: .utf8)
        try #require(try await spawn([builtBinary, "play", work + "/same.iapsim", "--snapshots", work + "/play"], output: work + "/play.log") == 0)
        // The live clock is the wall's and keys come when tmux sends them: the timeline's times differ, nothing else may.
        func lines(_ path: String) throws -> [String] {
            try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.replacingOccurrences(of: #"^ +[0-9.]+[smh] "#, with: " (time) ", options: .regularExpression) }
                .map { String($0.reversed().drop { $0 == " " }.reversed()) }
                .reversed().drop { $0.isEmpty }.reversed()
        }
        let live = try lines(work + "/live.txt"), headless = try lines(work + "/play/inspector.txt")
        #expect(live.contains { $0.contains("Timeline") })
        #expect(live == headless, "live:\n\(live.joined(separator: "\n"))\nheadless:\n\(headless.joined(separator: "\n"))")
    }

    @Test("R with the backend down, kill -9 once the restored transaction is saved, relaunch, Continue; R again: Remove Ads charged once, credited once, every restore finished")
    func restoreKillAndRecover() async throws {
        let state = try await play("restore-kill")
        let store = try #require((state["store"] as? [String: Any])?["transactions"] as? [[String: Any]])
        let credits = try #require((state["backend"] as? [String: Any])?["credits"] as? [[String: Any]])
        let users = try #require((state["client"] as? [String: Any])?["users"] as? [String: Any])
        #expect(store.map { $0["state"] as? String } == ["purchased", "restored", "restored"])
        #expect(store.allSatisfy { $0["finished"] as? Bool == true && $0["account"] as? String == "sandbox-1" && $0["device"] as? String == "phone" })
        let original = store.first?["transactionId"] as? String
        #expect(store.dropFirst().allSatisfy { $0["originalTransactionId"] as? String == original })
        #expect(credits.count == 1 && credits.first?["user"] as? String == "alice" && credits.first?["transactionId"] as? String == original)
        let pending = (users["alice"] as? [String: Any])?["pending"] as? [Any] ?? []
        #expect(pending.isEmpty)
    }

    @Test("--scenario sets a loss case up on its own data and hands it over at its prompt")
    func scenarioHandover() async throws {
        try await settled(try await play("scenario"), user: "alice")
    }

    @Test("`iapsim faults` lists every fault with what it does; `iapsim reset` empties every party")
    func faultsAndReset() async throws {
        let work = try makeWorkDirectory()
        defer { try? FileManager.default.removeItem(atPath: work) }
        #expect(try await spawn([builtBinary, "faults"], output: work + "/faults") == 0)
        let faults = try String(contentsOfFile: work + "/faults", encoding: .utf8)
        for name in ["backend-down", "payments-disabled", "purchase-fails", "empty-application-username", "finish-not-found"] {
            #expect(faults.contains(name))
        }
        let data = work + "/data"
        #expect(try await spawn([builtBinary, "play", "--data-dir", data, "paid-then-killed"], output: work + "/play") == 0)
        #expect(FileManager.default.fileExists(atPath: data + "/store.sqlite"))
        #expect(try await spawn([builtBinary, "reset", "--data-dir", data], output: work + "/reset") == 0)
        for file in ["store.sqlite", "backend.sqlite", "client-keychain.sqlite", "client-sandbox.sqlite"] {
            #expect(!FileManager.default.fileExists(atPath: data + "/" + file), "\(file)")
        }
        #expect(try String(contentsOfFile: work + "/reset", encoding: .utf8).contains("cleared"))
    }

    @Test("a data file that is not a database is named, explained and left untouched; the launch screen was up, and the terminal is given back before it is said")
    func corruptDataFile() async throws {
        let work = try makeWorkDirectory()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let data = work + "/data"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let garbage = String(repeating: "not a database ", count: 100)
        try garbage.write(toFile: data + "/backend.sqlite", atomically: true, encoding: .utf8)
        let status = try await spawn(["script", "-qec", "env TERM=xterm-256color \(builtBinary) --data-dir \(data)", "/dev/null"], output: work + "/out")
        let output = try String(contentsOfFile: work + "/out", encoding: .utf8)
        #expect(status != 0)
        #expect(output.contains("backend.sqlite"))
        let said = try #require(output.range(of: "not a readable iapsim database"))
        let launchScreen = try #require(output.range(of: "iapsim · mock App Store"), "\(output)")
        // xterm's rmcup: the screen the shell had, back before the line is written under it.
        let givenBack = try #require(output.range(of: "\u{1b}[?1049l", options: .backwards), "\(output.debugDescription)")
        #expect(launchScreen.upperBound < givenBack.lowerBound && givenBack.upperBound <= said.lowerBound)
        #expect(try String(contentsOfFile: data + "/backend.sqlite", encoding: .utf8) == garbage)
    }

    @Test("without a terminal it says so in one line and exits non-zero")
    func noTerminal() async throws {
        let work = try makeWorkDirectory()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let status = try await spawn([builtBinary, "--data-dir", work + "/data"], output: work + "/out")
        let output = try String(contentsOfFile: work + "/out", encoding: .utf8)
        #expect(status == 2)
        #expect(output.contains("needs an interactive terminal"))
        #expect(output.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: work + "/data/store.sqlite"))
    }

    @Test("a malformed catalog names the file, the place and the problem, and never starts the UI")
    func malformedCatalog() async throws {
        let work = try makeWorkDirectory()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let catalog = work + "/bad.json"
        try #"{"products": [{"id": "x", "type": "gem", "price": "¥1", "title": {"en": "X", "zh": "X"}, "description": {"en": "", "zh": ""}}]}"#
            .write(toFile: catalog, atomically: true, encoding: .utf8)
        // `script` gives the app a terminal, so the catalog check is what stops it.
        let status = try await spawn(["script", "-qec", "\(builtBinary) --catalog \(catalog) --data-dir \(work)/data", "/dev/null"], output: work + "/out")
        let output = try String(contentsOfFile: work + "/out", encoding: .utf8)
        #expect(status != 0)
        #expect(output.contains(catalog))
        #expect(output.contains("products[0].type"))
        #expect(output.contains("unknown type \"gem\""))
    }
}
