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

    public func act(_ command: Command, on selection: Int, in state: inout AppState) -> [Effect]? {
        guard command == .choose || command == .armOnce else { return nil }
        let once = command == .armOnce
        switch FaultPanelRow.all[selection] {
        case let .fault(fault):
            let armed = state.faults.arm(fault)
            // Enter on an armed fault disarms it; `o` on a sticky one makes it one-shot.
            if let armed, armed.once == once { return state.setFault(fault, nil) }
            return state.setFault(fault, FaultArm(value: armed?.value, once: once))
        case .crashNow:
            return state.perform(.crashNow)
        case .reinstall:
            return state.perform(.reinstall)
        }
    }
}

extension KeyContext {
    /// The fault panel: a list to move in, arm (Enter) or arm once (o).
    public static let panel = KeyContext("panel")
}

extension Command {
    public static let faultPanel = Command("faults"), armOnce = Command("arm-once")
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
