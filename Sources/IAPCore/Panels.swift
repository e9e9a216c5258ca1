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

/// A shipped scenario as the list in the UI shows it.
public struct ScenarioInfo: Sendable, Equatable {
    public let name: String
    public let shows: Localized

    public init(name: String, shows: Localized) {
        self.name = name
        self.shows = shows
    }
}

extension AppState {
    mutating func movePanel(by step: Int) {
        switch modal {
        case let .faultPanel(selection):
            modal = .faultPanel(selection: (selection + step + FaultPanelRow.all.count) % FaultPanelRow.all.count)
        case let .scenarios(selection) where !scenarios.isEmpty:
            modal = .scenarios(selection: (selection + step + scenarios.count) % scenarios.count)
        case let .stateCatalog(selection):
            let count = VisibleState.ids.count
            modal = .stateCatalog(selection: (selection + step + count) % count)
        case let .subscriptions(selection) where !subscriptions.isEmpty:
            modal = .subscriptions(selection: (selection + step + subscriptions.count) % subscriptions.count)
        default:
            break
        }
    }

    /// PgUp/PgDn (a page, stopping at the ends) and Home/End in a list overlay.
    mutating func jumpPanel(_ command: Command) {
        func target(_ current: Int, _ count: Int) -> Int {
            let last = max(count - 1, 0)
            switch command {
            case .pageUp: return max(current - Keymap.page, 0)
            case .pageDown: return min(current + Keymap.page, last)
            case .first: return 0
            default: return last
            }
        }
        switch modal {
        case let .faultPanel(selection): modal = .faultPanel(selection: target(selection, FaultPanelRow.all.count))
        case let .scenarios(selection) where !scenarios.isEmpty: modal = .scenarios(selection: target(selection, scenarios.count))
        case let .stateCatalog(selection): modal = .stateCatalog(selection: target(selection, VisibleState.ids.count))
        case let .subscriptions(selection): modal = .subscriptions(selection: target(selection, subscriptions.count))
        default: break
        }
    }

    /// Enter (sticky) or `o` (one-shot) on the fault panel; Enter on the scenario list.
    mutating func choosePanel(once: Bool) -> [Effect] {
        switch modal {
        case let .faultPanel(selection):
            switch FaultPanelRow.all[selection] {
            case let .fault(fault):
                let armed = faults.arm(fault)
                // Enter on an armed fault disarms it; `o` on a sticky one makes it one-shot.
                if let armed, armed.once == once { return setFault(fault, nil) }
                return setFault(fault, FaultArm(value: armed?.value, once: once))
            case .crashNow:
                return perform(.crashNow)
            case .reinstall:
                return perform(.reinstall)
            }
        case let .scenarios(selection) where scenarios.indices.contains(selection):
            return perform(.startScenario(scenarios[selection].name))
        case let .subscriptions(selection) where subscriptions.indices.contains(selection):
            let chosen = subscriptions[selection]
            // Only one that has not ended can be cancelled or resumed; an expired one is bought again from the list.
            guard !chosen.isOver else { return [] }
            return perform(.setAutoRenew(originalTransactionId: chosen.originalTransactionId, on: chosen.state == .cancelled))
        default:
            return []
        }
    }
}
