import IAPCore
import Testing

@Suite("The fault table: one row per fault")
struct FaultTableTests {
    @Test("a fault takes a value exactly when it has a default, and its default is a value it takes", arguments: Fault.allCases)
    func defaultIsAValue(fault: Fault) throws {
        let rule = fault.rule
        #expect((rule.value == .none) == (rule.defaultValue == nil), "\(fault.rawValue)")
        #expect((fault.valueHelp == nil) == (rule.value == .none), "\(fault.rawValue)")
        if let value = rule.defaultValue {
            let (parsed, arm) = try ArmedFaults.parse("\(fault.rawValue)=\(value)")
            #expect(parsed == fault && arm.value == value)
        }
    }

    @Test("the parties are listed in the order `iapsim faults` groups them: store, backend, app")
    func partiesInOrder() {
        let parties = Fault.allCases.map(\.party)
        #expect(parties == parties.sorted { order($0) < order($1) })
    }

    private func order(_ party: Fault.Party) -> Int {
        switch party {
        case .store: 0
        case .backend: 1
        case .app: 2
        }
    }

    @Test("a bad value is refused with what the fault takes", arguments: [
        ("payments-disabled=1", "payments-disabled takes no value"),
        ("ask-to-buy=maybe", "ask-to-buy takes approve or decline, not \"maybe\""),
        ("crash-at=lunch", "crash-at takes one of create-order, record-intent, add-payment, persist, verify, finish, remove, not \"lunch\""),
        ("backend-slow=nan", "backend-slow takes 0 to 3600 (seconds), not \"nan\""),
        ("backend-slow=0x10", "backend-slow takes 0 to 3600 (seconds), not \"0x10\""),
        ("backend-5xx=503.5", "backend-5xx takes a whole number 500 to 599 (HTTP status), not \"503.5\""),
        ("verification-pending=101", "verification-pending takes a whole number 0 to 100 (answers before the real one), not \"101\""),
        ("backend-slow=", "backend-slow= has no value: give backend-slow=VALUE (VALUE: 0 to 3600 seconds), or backend-slow alone for 8"),
        ("ask-to-buy=:once", "ask-to-buy= has no value: give ask-to-buy=VALUE (VALUE: approve|decline), or ask-to-buy alone for approve"),
        ("payments-disabled=", "payments-disabled takes no value"),
        ("backend-5xx=", "backend-5xx= has no value: give backend-5xx=VALUE (VALUE: 500 to 599, HTTP status), or backend-5xx alone for 503"),
    ])
    func badValues(text: String, message: String) {
        #expect(throws: FaultSyntaxError.self) { try ArmedFaults.parse(text) }
        do {
            _ = try ArmedFaults.parse(text)
        } catch {
            #expect(error.message == message)
        }
    }

    @Test("fractions of a second are allowed, and a one-shot suffix is read")
    func goodValues() throws {
        let (fault, arm) = try ArmedFaults.parse("observer-delayed=0.5:once")
        #expect(fault == .observerDelayed && arm == FaultArm(value: "0.5", once: true))
    }
}
