/// QA's fault panel: every fault to arm (Enter, sticky) or arm once (`o`), and the app events to cause now.
public struct FaultsPanel: ListPanel {
    public var context: KeyContext { .panel }
    public var opens: Command { .faultPanel }
    public var stateId: String { "fault-panel" }

    public func selection(in modal: Modal) -> Int? {
        if case let .faultPanel(selection) = modal { return selection }
        return nil
    }

    public func modal(selection: Int) -> Modal { .faultPanel(selection: selection) }

    public func count(in state: AppState) -> Int { FaultPanelRow.all.count }

    public var bindings: [KeyBinding] {
        // One line of help for the two: the same label and words.
        [KeyBinding(keys: [.right], label: "←/→", command: .nextValue, contexts: [.panel]),
         KeyBinding(keys: [.left], label: "←/→", command: .previousValue, contexts: [.panel])]
    }

    public func act(_ command: Command, on selection: Int, in state: inout AppState) -> [Effect]? {
        if command == .nextValue || command == .previousValue {
            guard case let .fault(fault) = FaultPanelRow.all[selection] else { return [] }
            return stepValue(of: fault, back: command == .previousValue, in: &state)
        }
        guard command == .choose || command == .armOnce else { return nil }
        let once = command == .armOnce
        switch FaultPanelRow.all[selection] {
        case let .fault(fault):
            let armed = state.faults.arm(fault)
            // Enter on an armed fault disarms it; `o` on a sticky one makes it one-shot.
            if let armed, armed.once == once { return state.setFault(fault, nil) }
            return state.setFault(fault, FaultArm(value: armed?.value ?? state.faults.chosen[fault], once: once))
        case .crashNow:
            return state.perform(.crashNow)
        case .reinstall:
            return state.perform(.reinstall)
        }
    }

    /// Arms the fault with the value after (or before) the one in force, keeping it one-shot if it was; a fault that
    /// takes no value stays as it is. A number given with `--fault` between two of the panel's steps to its neighbour.
    private func stepValue(of fault: Fault, back: Bool, in state: inout AppState) -> [Effect] {
        var choices = fault.rule.choices
        guard !choices.isEmpty else { return [] }
        let current = state.faults.valueInForce(fault)
        // A fault's numbers are in ascending order: one given with --fault steps from where it falls among them.
        if let current, !choices.contains(current), let number = Double(current) {
            choices.insert(current, at: choices.firstIndex { (Double($0) ?? 0) > number } ?? choices.count)
        }
        let index = choices.firstIndex { $0 == current } ?? 0
        let next = choices[(index + (back ? -1 : 1) + choices.count) % choices.count]
        return state.setFault(fault, FaultArm(value: next, once: state.faults.arm(fault)?.once ?? false))
    }
}

extension KeyContext {
    /// The fault panel: a list to move in, arm (Enter), arm once (o), or set a fault's value (←/→).
    public static let panel = KeyContext("panel")
}

extension Command {
    public static let faultPanel = Command("faults"), armOnce = Command("arm-once"), nextValue = Command("next-value"),
                      previousValue = Command("previous-value")
}

/// One row of the fault panel: a fault to arm or disarm, or an app event to cause now.
public enum FaultPanelRow: Sendable, Equatable {
    case fault(Fault)
    case crashNow
    case reinstall

    public static let all: [FaultPanelRow] = Fault.allCases.map { .fault($0) } + [.crashNow, .reinstall]

    public var label: String {
        switch self {
        case let .fault(fault): fault.rawValue
        case .crashNow: "crash-now"
        case .reinstall: "reinstall"
        }
    }
}
