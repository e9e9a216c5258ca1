import Foundation
import IAPApp
import IAPCore
import Testing

let scenarioFolder = repositoryRoot.appendingPathComponent("assets/scenarios").path
let scenarioFiles = ((try? FileManager.default.contentsOfDirectory(atPath: scenarioFolder)) ?? [])
    .filter { $0.hasSuffix(".iapsim") }.sorted()

@Suite("Scenario scripts and the script language")
struct ScenarioTests {
    private func play(_ script: Script, snapshots: String? = nil, width: Int = 80, storeKit: StoreKitMode = .one,
                      lang: Language = .en) throws -> (ScriptPlayer.Outcome, String) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("iapsim-play-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var transcript = ""
        var setup = ScriptPlayer.Setup(directory: DataDirectory(path: path), catalog: shippedCatalog, options: AppState(lang: lang, storeKit: storeKit))
        setup.snapshots = snapshots
        setup.width = width
        let outcome = try ScriptPlayer(setup) { transcript += $0 + "\n" }.play(script)
        return (outcome, transcript)
    }

    /// Issue 28: each plays in StoreKit 1 and in StoreKit 2, unless its `# storekit:` line pins one.
    @Test("every shipped scenario meets its expectations, in either StoreKit", arguments: scenarioFiles, StoreKitMode.allCases)
    func shippedScenario(file: String, storeKit: StoreKitMode) throws {
        let script = try Script.load(path: scenarioFolder + "/" + file)
        for key in ["name", "shows", "shows.zh", "from", "expect"] {
            #expect(script.header[key] != nil, "\(file) has no `# \(key):` line")
        }
        #expect(script.name + ".iapsim" == file, "\(file) is named \(script.name): --scenario and its completion take the file's name")
        #expect(script.steps.contains { $0.step == .handover }, "\(file) never hands over to the person at the keyboard")
        // A pinned scenario runs in its own StoreKit whatever the player says: played once.
        guard script.storeKit == nil || script.storeKit == storeKit else { return }
        let (outcome, transcript) = try play(script, storeKit: storeKit)
        guard case .passed = outcome else {
            Issue.record("\(file) failed in StoreKit \(storeKit.rawValue):\n\(transcript)")
            return
        }
    }

    @Test("a shipped scenario played in Chinese (`iapsim play --lang zh`) waits for the same moments as in English: its English words are read on the screen as it would read in English, and a Chinese one on the screen as shown (found in a QA walk: \"Unfinished order found\" did not appear)",
          arguments: ["paid-then-killed.iapsim", "backend-down-retries.iapsim", "restore-on-new-device.iapsim"])
    func playedInChinese(file: String) throws {
        let script = try Script.load(path: scenarioFolder + "/" + file)
        let (outcome, transcript) = try play(script, lang: .zh)
        guard case .passed = outcome else {
            Issue.record("\(file) failed in Chinese:\n\(transcript)")
            return
        }
        let chinese = try Script.parse("launch alice\nwait until \"60 金币\"\nexpect screen \"60 金币\"\nexpect no screen \"Purchase complete\"\nexpect no screen \"购买成功\"\n", file: "zh.iapsim")
        let (zhOutcome, zhTranscript) = try play(chinese, lang: .zh)
        guard case .passed = zhOutcome else {
            Issue.record("Chinese words failed:\n\(zhTranscript)")
            return
        }
    }

    @Test("the issue's loss cases each ship as a scenario")
    func catalogOfScenarios() {
        let names = Set(scenarioFiles.map { ($0 as NSString).deletingPathExtension })
        for wanted in ["paid-then-killed", "empty-application-username", "failed-then-purchased", "backend-down-retries",
                       "switched-mid-purchase", "unfinished-blocks-rebuy", "receipt-empty", "finish-not-found",
                       "sandbox-receipt-in-production", "ask-to-buy-approved", "ask-to-buy-declined", "refund-after-credit",
                       "reinstall-with-pending", "jailbroken", "trial-then-renewal", "renewal-while-app-closed", "cancel-then-expire",
                       "billing-retry-recovered", "billing-recovered-after-grace", "billing-retry-expired", "billing-fails-with-grace", "billing-fails-without-grace", "upgrade-mid-period", "downgrade-at-renewal",
                       "refund-revokes-entitlement", "bought-twice", "restore-on-new-device",
                       "reinstall-then-restore"] {
            #expect(names.contains(wanted), "missing scenario \(wanted)")
        }
    }

    @Test("support's `assign` step gives an unattributable payment to its payer, and refuses one that is not waiting")
    func assignStep() throws {
        var text = try String(contentsOfFile: scenarioFolder + "/unattributed-payment.iapsim", encoding: .utf8)
        text = text.replacingOccurrences(of: "press i\nexpect screen \"unclaimed\"\npress a\npress Esc\n",
                                         with: "assign 1000000002 bob\nassign 1000000003 alice\n")
        #expect(text.contains("assign 1000000002 bob"))
        let (outcome, transcript) = try play(try Script.parse(text, file: "assign.iapsim"))
        guard case .passed = outcome else {
            Issue.record("assign failed:\n\(transcript)")
            return
        }
        let (refused, _) = try play(try Script.parse("launch alice\nassign 1000000001 alice\n", file: "t.iapsim"))
        guard case let .failed(_, message) = refused else {
            Issue.record("assigning a transaction nobody holds should fail")
            return
        }
        #expect(message == "transaction 1000000001 is not waiting for support")
    }

    @Test("one Apple ID for alice and bob: support's desk sees the Apple ID and the app's orders, which name no one, so `a` guesses nobody; `assign` after asking the users does")
    func supportSeesWhatSupportCanSee() throws {
        var text = try String(contentsOfFile: scenarioFolder + "/unattributed-payment.iapsim", encoding: .utf8)
        // The phone's one Apple ID pays for both: its records cannot tell alice's payment from bob's.
        text = text.replacingOccurrences(of: "launch alice\n", with: "launch alice\napple-id sandbox-1\n")
        // The badge naming the Apple ID leaves the alarm's start in view at 80 columns.
        text = text.replacingOccurrences(of: "expect screen \"buyer unknown\"\n", with: "expect screen \"ALARM: tx 1000000003 paid\"\n")
        text = text.replacingOccurrences(of: "press i\nexpect screen \"unclaimed\"\npress a\npress Esc\n", with: """
            press i
            expect screen "1000000002"
            expect screen " Apple ID sandbox-1"
            expect screen " Order ∅"
            expect screen "its Apple ID's orders ∅"
            press a
            expect pending bob 0
            press Esc
            assign 1000000002 bob
            assign 1000000003 alice

            """)
        #expect(text.contains("apple-id sandbox-1") && text.contains("assign 1000000003 alice"))
        // At 80 columns, as support's desk is read in a terminal of its size: each record whole, on lines of its own.
        let (outcome, transcript) = try play(try Script.parse(text, file: "desk.iapsim"))
        guard case .passed = outcome else {
            Issue.record("support's desk:\n\(transcript)")
            return
        }
    }

    @Test("`restore` does what R does on the product list, and says why when it cannot")
    func restoreStep() throws {
        let (outcome, transcript) = try play(try Script.parse("""
            launch bob
            wait until Coins
            restore
            wait until "Nothing to restore"
            """, file: "t.iapsim"))
        guard case .passed = outcome else {
            Issue.record("\(transcript)")
            return
        }
        for (text, message) in [
            ("launch\nrestore", "nobody is logged in to restore for; `login NAME` first"),
            ("launch bob\nwait until Coins\nrestore\nrestore", "Restore Purchases is on the product list, and something is over it; `press Esc` first"),
        ] {
            let (refused, _) = try play(try Script.parse(text, file: "t.iapsim"))
            guard case let .failed(_, said) = refused else {
                Issue.record("\(text) passed")
                continue
            }
            #expect(said == message)
        }
    }

    @Test("a key that changes nothing is said in the transcript: Enter before the products have loaded is not lost without a word")
    func unheededKey() throws {
        let script = try Script.parse("""
            launch alice
            press Enter
            wait until Coins
            press Up
            press Enter
            """, file: "t.iapsim")
        let (outcome, transcript) = try play(script)
        guard case .passed = outcome else { Issue.record("\(transcript)"); return }
        let lines = transcript.split(separator: "\n")
        let presses = lines.filter { $0.contains("press ") }
        #expect(presses.count == 3, "\(transcript)")
        guard presses.count == 3 else { return }
        #expect(presses[0].contains("changed nothing: the products are still loading"), "\(presses[0])")
        #expect(presses[1].contains("changed nothing"), "the cursor already on the first product: \(presses[1])")
        #expect(!presses[2].contains("changed nothing"), "Enter on the product list buys: \(presses[2])")
    }

    @Test("a failed expectation stops the script at its line and shows the screen at that moment")
    func failureStops() throws {
        let script = try Script.parse("""
            launch alice
            wait until Coins
            expect credits alice 1
            press Enter
            """, file: "t.iapsim")
        let (outcome, transcript) = try play(script)
        guard case let .failed(line, message) = outcome else {
            Issue.record("expected a failure:\n\(transcript)")
            return
        }
        #expect(line == 3)
        #expect(message == "credits of alice: expected 1, found 0")
        #expect(transcript.contains("screen at that moment:"))
        #expect(transcript.contains("Balance 0 coins"))
        #expect(!transcript.contains("press Enter"))
    }

    @Test("script errors name the file, the line and the problem", arguments: [
        ("wiggle", "t.iapsim:1: unknown step `wiggle`"),
        ("press Ctrl", "t.iapsim:1: unknown key \"Ctrl\""),
        ("fault backend-sideways", "t.iapsim:1: unknown fault \"backend-sideways\""),
        ("fault backend-down:twice", "t.iapsim:1: \"twice\" is not how long backend-down lasts: give backend-down (until cleared) or backend-down:once"),
        ("fault backend-slow=8:twice", "t.iapsim:1: \"twice\" is not how long backend-slow lasts: give backend-slow=8 (until cleared) or backend-slow=8:once"),
        ("fault crash-at=lunch", "t.iapsim:1: crash-at takes one of"),
        ("wait soon", "t.iapsim:1: `wait` needs a number of seconds"),
        ("expect credits alice many", "t.iapsim:1: `expect credits` counts with a whole number 0 to 1000000000, not \"many\""),
    ])
    func scriptErrors(text: String, expected: String) {
        #expect(throws: ScriptError.self) { try Script.parse(text, file: "t.iapsim") }
        do { _ = try Script.parse(text, file: "t.iapsim") } catch {
            #expect("\(error)".hasPrefix(expected), "\(error)")
        }
    }

    @Test("snapshot writes the screen as text, and one-shot faults are gone once they fire")
    func snapshotAndOnce() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iapsim-snap-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let script = try Script.parse("""
            fault purchase-fails:once
            launch alice
            wait until Coins
            expect screen "purchase-fails·once"
            press Enter
            wait until "Purchase failed"
            expect no screen "purchase-fails"
            snapshot failed
            press Esc
            press Enter
            wait until "Purchase complete"
            expect credits alice 1
            """, file: "t.iapsim")
        let (outcome, transcript) = try play(script, snapshots: folder)
        guard case .passed = outcome else {
            Issue.record("\(transcript)")
            return
        }
        let snapshot = try String(contentsOfFile: folder + "/failed.txt", encoding: .utf8)
        #expect(snapshot.contains("Purchase failed"))
    }
}
