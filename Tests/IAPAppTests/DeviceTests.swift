import Foundation
import IAPApp
import IAPCore
import Launcher
import MockStore
import Testing

/// Devices of one store account (`device NAME`): each install has its own keychain, sandbox and queue of unfinished
/// store transactions; Apple's records of what the account owns and the backend are shared.
@Suite("Devices: each install its own keychain, sandbox and store queue")
struct DeviceTests {
    @Test("an order pending on the phone stays the phone's: the tablet is neither prompted nor handed its transaction")
    func pendingStaysOnItsDevice() throws {
        let app = try Harness.paidWhile()  // alice, 60 Coins, the backend down: pending on the phone
        #expect(app.state.pendingCount == 1)
        try app.session.move(to: "tablet", user: "alice")
        app.session.set(.backendDown, nil)
        app.advance(10)
        #expect(app.directory.device == "tablet")
        #expect(app.state.pendingCount == 0 && app.state.modal == nil)
        #expect(app.state.device.storeQueue.isEmpty && app.state.unclaimed.isEmpty)
        #expect(try app.clientOrders().isEmpty)
        #expect(try app.credits().isEmpty)
        #expect(FileManager.default.fileExists(atPath: app.directory.path + "/devices/tablet/client-keychain.sqlite"))

        try app.session.move(to: StoreDatabase.firstDevice)  // the phone remembers alice
        app.advance(0.5)
        #expect(app.state.user == "alice")
        #expect(app.state.modal == .unfinished(transactionId: "1000000001", choice: 0))
        app.press(.enter)
        app.advance(5)
        #expect(try app.credits().map(\.user) == ["alice"])
        #expect(try app.storeTransactions().allSatisfy(\.finished))
    }

    @Test("a new device starts with nobody logged in; a user given logs in there")
    func newDeviceLogsInNobody() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        try app.session.move(to: "tablet")
        app.advance(0.5)
        #expect(app.state.user == nil)
        #expect(app.screen().contains("Log in as:"))
        try app.session.move(to: "watch", user: "bob")
        app.advance(0.5)
        #expect(app.state.user == "bob")
    }

    @Test("StoreKit refuses a second payment only while the same device holds the product unfinished")
    func blockedPerDevice() throws {
        let app = try Harness.paidWhile()  // 60 Coins unfinished on the phone
        try app.session.move(to: "tablet", user: "alice")
        app.advance(0.5)
        app.press(.enter)  // 60 Coins again, on the tablet
        app.advance(3)
        let tablet = try app.storeTransactions().filter { $0.0.id != "1000000001" }
        #expect(tablet.map(\.0.state) == [.purchased], "\(tablet)")
        #expect(app.parties.store.unfinished().transactions.count == 2)
    }

    @Test("what Apple decides later for a phone's payment reaches the phone, not the tablet the app moved to")
    func laterDecisionsStayOnTheirDevice() throws {
        let app = try Harness(user: "alice", faults: [.askToBuy])
        app.advance(0.5)
        app.press(.enter)
        app.advance(2)
        #expect(app.screen().contains("Waiting for approval"))
        try app.session.move(to: "tablet", user: "alice")
        app.session.set(.askToBuy, nil)
        app.advance(30)  // the parent approved meanwhile
        #expect(try app.clientOrders().isEmpty)
        #expect(try app.credits().isEmpty)
        try app.session.move(to: StoreDatabase.firstDevice, user: "alice")
        app.advance(0.5)
        #expect(app.screen().contains("Unfinished order found"))  // approved while the phone's app was not running
        app.press(.enter)
        app.advance(5)
        #expect(try app.credits().map(\.user) == ["alice"])
        let records = try app.storeRecords()
        #expect(records.count == 1 && records[0].transaction.state == .purchased && records[0].finished)
    }

    @Test("a renewal joins the queue of the device its subscription was charged on, not the tablet the app moved to")
    func renewalStaysOnItsDevice() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        let index = shippedCatalog.firstIndex { $0.id == "com.iapsim.vip.yearly" }!
        for _ in 0..<index { app.press(.down) }
        app.press(.enter)
        app.advance(5)
        app.press(.escape)
        try app.session.move(to: "tablet", user: "alice")
        app.advance(1)
        let due = try #require(app.parties.store.nextSubscriptionEvent())
        app.advance(due.timeIntervalSince(app.timers.now) + 10)
        let renewals = try app.storeRecords().filter { $0.transaction.productId == "com.iapsim.vip.yearly" && $0.transaction.originalTransactionId != nil }
        #expect(renewals.count == 1 && renewals.allSatisfy { !$0.finished })
        let renewal = try #require(renewals.first).transaction.id
        #expect(try StoreDatabase(path: app.directory.store).device(of: renewal) == StoreDatabase.firstDevice)
        #expect(app.state.device.storeQueue[renewal] == nil && app.state.unclaimed.isEmpty)
        #expect(try app.clientOrders().isEmpty)
        try app.session.move(to: StoreDatabase.firstDevice, user: "alice")
        app.advance(1)
        if case .unfinished = app.state.modal { app.press(.enter) }
        app.advance(5)
        #expect(try app.storeRecords().allSatisfy(\.finished))
        #expect(try app.credits().filter { $0.productId == "com.iapsim.vip.yearly" }.count == 2)
    }

    @Test("a reinstall on a device wipes that device's sandbox only")
    func reinstallOnADevice() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        try app.session.move(to: "tablet", user: "bob")
        app.advance(0.5)
        try app.session.reinstall()
        app.advance(0.5)
        #expect(app.state.user == nil)
        try app.session.move(to: StoreDatabase.firstDevice)
        app.advance(0.5)
        #expect(app.state.user == "alice")
    }

    @Test("`device NAME [USER]` in a script moves the app; reset clears every device; a bad name is refused at its line")
    func scriptStep() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("iapsim-test-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var transcript = ""
        let player = ScriptPlayer(ScriptPlayer.Setup(directory: DataDirectory(path: path), catalog: shippedCatalog)) { transcript += $0 + "\n" }
        let outcome = try player.play(try Script.parse("""
            fault backend-down
            launch alice
            wait until Coins
            press Enter
            wait until "retry 1"
            device tablet
            expect screen "Log in as"
            login alice
            wait until Coins
            expect pending alice 0
            expect unfinished 1
            device phone
            wait until "Unfinished order found"
            """, file: "t.iapsim"))
        guard case .passed = outcome else {
            Issue.record("\(transcript)")
            return
        }
        #expect(transcript.contains("device tablet   ✓ on tablet"))
        #expect(transcript.contains("device phone   ✓ on phone as alice"))
        #expect(try DataDirectory(path: path).removeAll().contains("devices/"))
        #expect(!FileManager.default.fileExists(atPath: path + "/devices"))
        for (text, message) in [("device ../x", "not a plain name"), ("device", "`device` takes"), ("device a b c", "`device` takes")] {
            #expect(throws: ScriptError.self) { try Script.parse(text, file: "t.iapsim") }
            do { _ = try Script.parse(text, file: "t.iapsim") } catch { #expect("\(error)".contains(message), "\(error)") }
        }
    }

    @Test("a scenario that moves to another device is handed over on that device, with whoever is logged in there")
    func scenarioHandsOverOnItsDevice() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("iapsim-test-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let session = try Scenarios.setUp("restore-on-new-device", under: DataDirectory(path: path), catalog: shippedCatalog,
                                          options: AppState(), speed: 1)
        defer { try? session.close() }
        #expect(session.directory.device == "tablet")
        #expect(session.directory.path == path + "/scenarios/restore-on-new-device")
        #expect(session.state.user == "alice")
        #expect(try session.parties.vault.lastUser() == "alice")
    }

    @Test("a scenario started while the app speaks Chinese plays its script as written (in English) and is handed over in Chinese (found by QA in a tmux walk: S, then Enter, crashed)")
    func scenarioInChinese() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("iapsim-test-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let session = try Scenarios.setUp("apple-down-backend-keeps", under: DataDirectory(path: path), catalog: shippedCatalog,
                                          options: AppState(lang: .zh), speed: 1)
        defer { try? session.close() }
        #expect(session.state.lang == .zh)
    }

    @Test("a scenario is handed over with the cursor where its script left it, so the next step read by hand (press Enter) buys what the script meant (found by a newcomer's walk), and the scenario list at its row")
    func scenarioKeepsTheCursor() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("iapsim-test-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let session = try Scenarios.setUp("win-back-offer", under: DataDirectory(path: path), catalog: shippedCatalog,
                                          options: AppState(), speed: 1)
        defer { try? session.close() }
        #expect(session.state.selectOnLoad == "com.iapsim.vip.monthly")
        #expect(session.state.storeKit == .two)
        // When the list loads, the cursor goes there.
        var state = session.state
        _ = state.reduce(.productsLoaded(.success(shippedCatalog)), now: state.now)
        #expect(state.selectedProduct?.id == "com.iapsim.vip.monthly")
        // And the scenario list at its row, though it was set up at launch (`--scenario NAME`), not from the list: S
        // opened the list at its top row (found in a QA walk).
        state.scenarios = Scenarios.list
        let row = ScenariosPanel().reopening(in: state)
        #expect(state.scenarios.indices.contains(row) && state.scenarios[row].name == "win-back-offer")
    }

    @Test("`iapsim state` names each transaction's device and lists every device's keychain")
    func stateNamesDevices() throws {
        let app = try Harness.paidWhile()
        try app.session.move(to: "tablet", user: "bob")
        app.advance(0.5)
        app.press(.enter)
        app.advance(3)
        let json = try JSONSerialization.jsonObject(with: Data(try StateReport.json(for: DataDirectory(path: app.directory.path), catalog: shippedCatalog).utf8)) as? [String: Any]
        let transactions = try #require((json?["store"] as? [String: Any])?["transactions"] as? [[String: Any]])
        #expect(transactions.map { $0["device"] as? String } == ["phone", "tablet"])
        let client = try #require(json?["client"] as? [String: Any])
        #expect((client["users"] as? [String: Any])?.keys.sorted() == ["alice"])
        let tablet = (client["devices"] as? [String: Any])?["tablet"] as? [String: Any]
        #expect((tablet?["users"] as? [String: Any])?.keys.sorted() == ["bob"])
    }
}
