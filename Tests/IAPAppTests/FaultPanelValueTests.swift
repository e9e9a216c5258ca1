import Foundation
import IAPApp
import IAPCore
import Testing

/// A newcomer's walk: the fault panel armed `ask-to-buy` only as `approve`, and its summary read "decides VALUE": a
/// value could be given only on the command line. ←/→ now step through the fault's values, arming it with the one shown.
@Suite("The fault panel sets a fault's value: ←/→ step through its values, the summary says the one in force")
struct FaultPanelValueTests {
    private func openPanel(at fault: Fault, _ app: Harness) throws {
        let index = try #require(FaultPanelRow.all.firstIndex(of: .fault(fault)))
        app.press(.char("F"), .home)  // it reopens where it was left
        for _ in 0..<index { app.press(.down) }
    }

    private func line(_ app: Harness, _ text: String) -> String {
        app.screen(width: 120, height: 40).split(separator: "\n").first { $0.contains(text) }.map(String.init) ?? ""
    }

    @Test("→ arms ask-to-buy as decline, and a purchase is then declined by the parent; ← goes back to approve")
    func askToBuyDecline() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        try openPanel(at: .askToBuy, app)
        #expect(app.screen(width: 120, height: 40).contains("whose answer 10 s later is: approve"))
        #expect(!app.screen(width: 120, height: 40).contains("is: VALUE"))
        #expect(app.screen(width: 120, height: 40).contains("←/→"))
        app.press(.right)
        #expect(app.parties.faults.armed.arm(.askToBuy) == FaultArm(value: "decline", once: false))
        #expect(app.state.faults == app.parties.faults.armed)
        #expect(line(app, "ask-to-buy").contains("ask-to-buy=decline"))
        #expect(app.screen(width: 120, height: 40).contains("whose answer 10 s later is: decline"))
        app.press(.left)
        #expect(app.parties.faults.armed.arm(.askToBuy) == FaultArm(value: "approve", once: false))
        app.press(.right, .char("o"))  // one-shot keeps the value chosen
        #expect(app.parties.faults.armed.arm(.askToBuy) == FaultArm(value: "decline", once: true))
        app.press(.escape)
        app.press(.enter)
        app.advance(20)
        let (transaction, finished) = try #require(try app.storeTransactions().first)
        #expect(transaction.state == .failed && finished)
        #expect(try app.charges().isEmpty)
    }

    @Test("disarmed and armed again, a fault keeps the value chosen for it (Enter twice, or fired once then re-armed)")
    func valueKeptWhenRearmed() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        try openPanel(at: .askToBuy, app)
        app.press(.right)
        #expect(app.parties.faults.armed.arm(.askToBuy) == FaultArm(value: "decline", once: false))
        app.press(.enter)
        #expect(app.parties.faults.armed.arm(.askToBuy) == nil)
        #expect(app.screen(width: 120, height: 40).contains("whose answer 10 s later is: decline"), "the panel shows the value Enter will arm")
        app.press(.enter)
        #expect(app.parties.faults.armed.arm(.askToBuy) == FaultArm(value: "decline", once: false))
        app.press(.enter, .char("o"))
        #expect(app.parties.faults.armed.arm(.askToBuy) == FaultArm(value: "decline", once: true))
        app.press(.escape, .enter)
        app.advance(20)
        #expect(app.parties.faults.armed.arm(.askToBuy) == nil, "fired once")
        try openPanel(at: .askToBuy, app)
        app.press(.enter)
        #expect(app.parties.faults.armed.arm(.askToBuy) == FaultArm(value: "decline", once: false))
    }

    @Test("a fault of seconds steps through telling durations, its default among them; one without values ignores ←/→")
    func secondsAndNone() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        try openPanel(at: .observerDelayed, app)
        #expect(app.screen(width: 120, height: 40).contains("hears of a payment 8 s after"))
        app.press(.right)
        let next = try #require(app.parties.faults.armed.arm(.observerDelayed)?.value)
        #expect(Double(next).map { $0 > 8 } == true, "\(next)")
        app.press(.left, .left)
        let before = try #require(app.parties.faults.armed.arm(.observerDelayed)?.value)
        #expect(Double(before).map { $0 < 8 } == true, "\(before)")
        app.press(.escape)
        try openPanel(at: .userCancels, app)
        app.press(.right)
        #expect(app.parties.faults.armed.arm(.userCancels) == nil)
    }

    /// From a QA walk: `--fault backend-slow=17` stepped → to 3 and ← to 3600, as if 17 were the first of the list.
    @Test("a value given at launch between the panel's values steps to its neighbours: 17 s → 30, ← 8")
    func givenValueSteps() throws {
        for (key, expected) in [(Key.right, "30"), (.left, "8")] {
            var faults = ArmedFaults()
            let (fault, arm) = try ArmedFaults.parse("backend-slow=17")
            faults.insert(fault, arm)
            let app = try Harness(user: "alice", faults: faults)
            app.advance(0.5)
            try openPanel(at: .backendSlow, app)
            app.press(key)
            #expect(app.parties.faults.armed.arm(.backendSlow)?.value == expected)
        }
    }

    @Test("every fault with a value offers its default and only values --fault accepts", arguments: Fault.allCases)
    func choicesAreValid(fault: Fault) throws {
        let choices = fault.rule.choices
        #expect(choices.isEmpty == (fault.defaultValue == nil))
        if let value = fault.defaultValue { #expect(choices.contains(value)) }
        for choice in choices { #expect(throws: Never.self) { try ArmedFaults.parse("\(fault.rawValue)=\(choice)") } }
        #expect(Set(choices).count == choices.count)
    }

    @Test("on an 80×24 terminal an armed fault's name is read whole, value and one-shot mark included: the summaries give way")
    func longArmedNameWholeAt80Columns() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        try openPanel(at: .unverifiedTransaction, app)
        app.press(.char("o"))
        #expect(app.parties.faults.armed.label(.unverifiedTransaction) == "unverified-transaction=signature·once")
        let row = app.screen(width: 80, height: 24).split(separator: "\n").first { $0.contains("unverified-") }.map(String.init) ?? ""
        #expect(row.contains("unverified-transaction=signature·once"), "\(row)")
    }
}
