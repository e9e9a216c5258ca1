/// The shipped scenarios: Enter sets the selected one up on its own data and hands it over.
public struct ScenariosPanel: ListPanel {
    public init() {}

    public var context: KeyContext { .scenarioList }
    public var opens: Command { .scenarios }
    public var stateId: String { "scenarios" }

    public func selection(in modal: Modal) -> Int? {
        if case let .scenarios(selection) = modal { return selection }
        return nil
    }

    public func modal(selection: Int) -> Modal { .scenarios(selection: selection) }

    public func count(in state: AppState) -> Int { state.scenarios.count }

    /// Read when first opened: parsing them is a quarter of the start-up time.
    public func open(_ state: inout AppState) -> [Effect] {
        state.modal = .scenarios(selection: reopening(in: state))
        return state.scenarios.isEmpty ? [.listScenarios] : []
    }

    /// The list read, once the panel has opened on nothing (the first time in a session, as after a handover): the
    /// cursor goes to the row it was left at.
    func listed(_ list: [ScenarioInfo], in state: inout AppState) {
        state.scenarios = list
        if case .scenarios = state.modal { state.modal = .scenarios(selection: reopening(in: state)) }
    }

    public func act(_ command: Command, on selection: Int, in state: inout AppState) -> [Effect]? {
        guard command == .choose else { return nil }
        guard state.scenarios.indices.contains(selection) else { return [] }
        return state.perform(.startScenario(state.scenarios[selection].name))
    }
}

extension KeyContext {
    /// The scenario list: a list to move in and start one from.
    public static let scenarioList = KeyContext("scenarioList")
}

extension Command {
    public static let scenarios = Command("scenarios")
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
