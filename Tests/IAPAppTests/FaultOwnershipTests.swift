import Foundation
import IAPApp
import IAPCore
import Testing

/// The fault board is what the store, the backend and the runtime obey; the badges and the panel read the state's
/// copy of it. Each test changes the board a different way and fails if the two ever disagree.
@Suite("The screen shows the faults the parties obey")
struct FaultOwnershipTests {
    private func expectSame(_ app: Harness, _ step: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(app.state.faults == app.parties.faults.armed, "after \(step)", sourceLocation: sourceLocation)
    }

    @Test("a one-shot crash-at is spent by the crash it causes, and its badge goes with it")
    func crashSpendsItsFault() throws {
        var faults: ArmedFaults = []
        faults.insert(.crashAt, FaultArm(value: "create-order", once: true))
        let app = try Harness(user: "alice", faults: faults)
        app.advance(0.5)
        expectSame(app, "launch")
        app.press(.enter)
        app.advance(1)
        #expect(app.runtime.crashReason != nil)
        #expect(app.parties.faults.armed.isEmpty)
        expectSame(app, "the crash")
        #expect(!app.screen().contains("crash-at"))
    }

    @Test("a one-shot fault a party fires leaves the badges when it is spent")
    func partySpendsOneShot() throws {
        var faults: ArmedFaults = []
        faults.insert(.userCancels, FaultArm(once: true))
        let app = try Harness(user: "alice", faults: faults)
        app.advance(0.5)
        #expect(app.screen().contains("user-cancels·once"))
        app.press(.enter)
        app.advance(3)
        #expect(app.parties.faults.armed.isEmpty)
        expectSame(app, "the cancelled payment")
        #expect(!app.screen().contains("user-cancels"))
    }

    @Test("the board changed behind the app's back: the badge follows the board, not the app's last word")
    func boardChangedDirectly() throws {
        let app = try Harness(user: "alice", faults: [.backendDown])
        app.advance(0.5)
        #expect(app.screen().contains("backend down"))
        app.parties.faults.set(.backendDown, nil)
        expectSame(app, "the network came back")
        #expect(!app.screen().contains("backend down"))
        app.press(.char("b"))  // so b arms what the parties obey, rather than disarming what they already ignore
        #expect(app.parties.faults.isArmed(.backendDown))
        expectSame(app, "b")
    }

    @Test("arming from the panel, the keys, a script's set and a relaunch keep the copy equal to the board")
    func everyWayOfArming() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.press(.char("F"), .enter)  // payments-disabled, sticky
        expectSame(app, "Enter on the panel")
        app.press(.down, .char("o"))  // products-empty, one-shot
        expectSame(app, "o on the panel")
        app.press(.enter)  // Enter on a one-shot one makes it sticky
        expectSame(app, "Enter on a one-shot fault")
        app.press(.escape, .char("b"), .char("b"), .char("b"))
        expectSame(app, "b three times")
        app.session.set(.verifyStatus, FaultArm(value: "21007"))
        expectSame(app, "a script's fault step")
        try app.relaunch(user: "alice")
        expectSame(app, "a relaunch")
        try app.relaunch(user: "alice", faults: [])
        expectSame(app, "a relaunch without faults")
        #expect(app.state.faults.isEmpty)
    }
}
