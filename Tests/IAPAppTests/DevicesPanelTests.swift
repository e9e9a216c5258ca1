import Foundation
import IAPApp
import IAPCore
import Testing

/// Devices and accounts (`D`): every device of the data, who is logged in there and what waits there, read from the
/// parties' files when the panel opens.
@Suite("Devices and accounts: every device, its user and what waits there")
struct DevicesPanelTests {
    /// Alice paid for 60 Coins on the phone with the backend down (unfinished and pending there); the app moved to
    /// `device` with `user` logged in, and `D` pressed.
    private func devicesOpened(on device: String, as user: String) throws -> Harness {
        let app = try Harness.paidWhile()
        try app.session.move(to: device, user: user)
        app.advance(0.5)
        app.press(.char("D"))
        return app
    }

    @Test("D lists each device with its user, its unfinished transactions and pending orders; ↑/↓ move round, D or Esc closes")
    func byKeys() throws {
        let app = try devicesOpened(on: "tablet", as: "bob")
        #expect(app.state.devices == [
            DeviceSummary(name: "phone", current: false, user: "alice", unfinished: 1, pending: 1),
            DeviceSummary(name: "tablet", current: true, user: "bob", unfinished: 0, pending: 0),
        ])
        let screen = app.screen()
        #expect(screen.contains("Devices and accounts"), "\(screen)")
        #expect(screen.contains("phone") && screen.contains("alice") && screen.contains("1 unfinished · 1 pending"), "\(screen)")
        #expect(screen.contains("tablet (this one)") && screen.contains("bob") && screen.contains("0 unfinished · 0 pending"), "\(screen)")
        #expect(app.state.visibleStateId == "devices")
        #expect(app.state.modal == DevicesPanel().modal(selection: 1))
        app.press(.down)
        #expect(app.state.modal == DevicesPanel().modal(selection: 0))
        app.press(.end)
        #expect(app.state.modal == DevicesPanel().modal(selection: 1))
        app.press(.escape)
        #expect(app.state.modal == nil)
        app.press(.char("D"))
        app.press(.char("D"))
        #expect(app.state.modal == nil)
    }

    @Test("at 64 columns, in both languages, what waits on each device is said whole: the other columns are as wide as what they hold (found in a QA walk: \"0 unfini…\")")
    func narrowTerminal() throws {
        let app = try devicesOpened(on: "tablet", as: "bob")
        let english = app.screen(width: 64, height: 20)
        #expect(english.contains("1 unfinished · 1 pending") && english.contains("0 unfinished · 0 pending"), "\(english)")
        app.press(.char("l"))
        let chinese = app.screen(width: 64, height: 20)
        #expect(chinese.contains("未完成 1 · 待处理 1") && chinese.contains("未完成 0 · 待处理 0"), "\(chinese)")
    }

    @Test("at 64 columns with long names, what waits is still said whole: the name, user and Apple ID columns give way, cut with …, the same on every row (found in a QA walk)")
    func narrowTerminalLongNames() throws {
        let app = try devicesOpened(on: "living-room-ipad", as: "grandmother-chen")
        let lines = app.screen(width: 64, height: 20).split(separator: "\n").map(String.init)
        let rows = lines.filter { $0.contains(" unfinished · ") }
        #expect(rows.count == 2, "\(lines.joined(separator: "\n"))")
        #expect(rows.allSatisfy { $0.contains("1 unfinished · 1 pending") || $0.contains("0 unfinished · 0 pending") }, "\(rows.joined(separator: "\n"))")
        #expect(rows.contains { $0.contains("living-roo") && $0.contains("…") }, "\(rows.joined(separator: "\n"))")
        // The counts start in one column on every row.
        #expect(Set(rows.map { $0.distance(from: $0.startIndex, to: $0.range(of: " unfinished")!.lowerBound) }).count == 1, "\(rows.joined(separator: "\n"))")
    }

    @Test("D opens with the cursor on the device the app runs on, where Enter acts; after Enter it stays there (found in a QA walk: it opened on the phone's row, where Enter does nothing)")
    func opensOnThisDevice() throws {
        let app = try devicesOpened(on: "tablet", as: "bob")
        #expect(app.state.modal == DevicesPanel().modal(selection: 1))
        app.press(.enter)
        #expect(app.state.modal == DevicesPanel().modal(selection: 1))
        app.press(.escape)
        // Opened again after the device changed: the cursor follows it.
        try app.session.move(to: "watch", user: "carol")
        app.advance(0.5)
        app.press(.char("D"))
        let here = try #require(app.state.devices.firstIndex { $0.current && $0.name == "watch" })
        #expect(app.state.modal == DevicesPanel().modal(selection: here))
    }

    @Test("the inspector's store queue is this device's, as the devices panel counts it: alice's unfinished purchase on the phone is not in the tablet's (found in a QA walk: the phone's inspector listed the tablet's transactions while D said 0 unfinished there)")
    func inspectorQueueIsThisDevices() throws {
        let app = try Harness.paidWhile()  // alice, 60 Coins, the backend down: unfinished on the phone
        #expect(app.session.inspectorView().storeQueue.map(\.id) == ["1000000001"])
        try app.session.move(to: "tablet", user: "bob")
        app.advance(0.5)
        let tablet = app.session.inspectorView()
        #expect(tablet.storeQueue.isEmpty && tablet.storeTotal == 0, "\(tablet.storeQueue)")
        app.press(.char("i"))
        #expect(app.screen(width: 100, height: 30).contains("Store queue (0)"), "\(app.screen(width: 100, height: 30))")
        app.press(.char("i"))
        app.press(.char("D"))
        #expect(app.state.devices.map { "\($0.name) \($0.unfinished ?? -1)" } == ["phone 1", "tablet 0"])
    }

    @Test("a device's count is of the Apple ID signed in there, as its store queue is: once another signs in on the phone, the first one's unfinished purchase is neither listed nor counted (found in a QA walk: \"1 unfinished\" beside \"Store queue (0)\")")
    func countsTheSignedInAppleIdOnly() throws {
        let app = try Harness.paidWhile()  // alice, 60 Coins, the backend down: unfinished on the phone
        app.press(.escape)  // the purchase's HUD
        app.press(.char("D"))
        #expect(app.state.devices.first { $0.current }?.unfinished == 1)
        app.press(.enter)  // a sandbox tester signs in on the phone, where alice paid with an Apple ID of her own name
        app.advance(0.5)
        let phone = try #require(app.state.devices.first { $0.current })
        #expect(phone.appleId != nil)
        #expect(app.session.inspectorView().storeQueue.isEmpty)
        #expect(phone.unfinished == 0, "\(app.state.devices)")
        #expect(phone.pending == 1, "the client's pending order is the app's, whoever is signed in to the store")
    }

    @Test("with room (100 columns), long names are said whole rather than cut to a fixed width (found in a QA walk: \"tablet-with-a-re…\" beside empty columns)")
    func wideTerminalLongNames() throws {
        let app = try devicesOpened(on: "tablet-with-a-long-name.2024", as: "Maximilian.Schwarz")
        let screen = app.screen(width: 100, height: 24)
        #expect(screen.contains("tablet-with-a-long-name.2024") && screen.contains("Maximilian.Schwarz"), "\(screen)")
        #expect(screen.contains("0 unfinished · 0 pending"), "\(screen)")
    }

    @Test("a device nobody has logged in to yet says so")
    func nobodyThere() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        try app.session.move(to: "watch")
        app.advance(0.5)
        try app.session.move(to: "phone")
        app.advance(0.5)
        app.press(.char("D"))
        #expect(app.state.devices.map(\.user) == ["alice", nil])
        #expect(app.screen().contains("nobody logged in"))
    }

    @Test("e explains every list panel, as it does anywhere: the panel's own state, and Esc goes back to the panel")
    func explainedInEveryPanel() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        for (key, stateId) in [("F", "fault-panel"), ("S", "scenarios"), ("m", "subscriptions"), ("D", "devices")] {
            app.press(.char(Character(key)))
            let panel = app.state.modal
            #expect(app.state.visibleStateId == stateId, "\(key)")
            app.press(.char("e"))
            #expect(app.state.modal == .explain(stateId: stateId, under: panel), "\(key): \(String(describing: app.state.modal))")
            app.press(.escape)
            #expect(app.state.modal == panel, "\(key)")
            app.press(.escape)
        }
    }
}
