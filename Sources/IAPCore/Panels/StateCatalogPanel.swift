/// Every state the app can show, by name, the selected one explained beside the list (`E`); `e` explains it alone.
public struct StateCatalogPanel: ListPanel {
    public var context: KeyContext { .stateBrowser }
    public var opens: Command { .stateCatalog }
    public var stateId: String { "state-catalog" }

    public func selection(in modal: Modal) -> Int? {
        if case let .stateCatalog(selection) = modal { return selection }
        return nil
    }

    public func modal(selection: Int) -> Modal { .stateCatalog(selection: selection) }

    public func count(in state: AppState) -> Int { VisibleState.ids.count }

    /// At the state that was on screen.
    public func open(_ state: inout AppState) -> [Effect] {
        state.modal = .stateCatalog(selection: VisibleState.ids.firstIndex(of: state.visibleStateId) ?? 0)
        return []
    }

    public func act(_ command: Command, on selection: Int, in state: inout AppState) -> [Effect]? {
        guard command == .explain, VisibleState.ids.indices.contains(selection) else { return nil }
        state.modal = .explain(stateId: VisibleState.ids[selection], under: state.modal)  // the state under the cursor
        return []
    }
}

extension KeyContext {
    /// Every state explained: a list to move in; the explanation follows the cursor.
    public static let stateBrowser = KeyContext("stateBrowser")
}

extension Command {
    public static let stateCatalog = Command("every-state")
}
