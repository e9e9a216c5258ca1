/// A list overlay, described once: where its keys go and which keys it brings, how many rows it has, what Enter and its
/// other keys do to the selected row, and the state id it shows. The shell moves in every one alike (↑/↓ round the
/// ends, PgUp/PgDn a page, Home/End); the screens draw each from its own description in IAPUI.
public protocol ListPanel: Sendable {
    /// Where the keys go while it is open.
    var context: KeyContext { get }
    /// The key that opens it.
    var opens: Command { get }
    /// Its keys, the one that opens it included (the four first panels' keys stay in `Keymap`'s own table).
    var bindings: [KeyBinding] { get }
    /// The `VisibleState` id of the screen while it is open.
    var stateId: String { get }
    /// Its selection, when `modal` is this panel.
    func selection(in modal: Modal) -> Int?
    func modal(selection: Int) -> Modal
    func count(in state: AppState) -> Int
    /// What its opening key does (from anywhere it works, this panel included).
    func open(_ state: inout AppState) -> [Effect]
    /// What one of its own keys does to the selected row; nil for a key it leaves to the shell.
    func act(_ command: Command, on selection: Int, in state: inout AppState) -> [Effect]?
    /// Whether one of its own keys would do anything to the selected row now: the hint bar offers only those.
    func offers(_ command: Command, on selection: Int, in state: AppState) -> Bool
}

/// The panel's name in `Modal.panel`, for panels that need no modal case of their own.
public struct PanelID: Hashable, Sendable {
    public let name: String

    public init(_ name: String) {
        self.name = name
    }
}

extension ListPanel {
    public var bindings: [KeyBinding] { [] }

    public func offers(_ command: Command, on selection: Int, in state: AppState) -> Bool { true }

    public func act(_ command: Command, on selection: Int, in state: inout AppState) -> [Effect]? { nil }

    /// Opens where it was left (the first row the first time); its key again closes it.
    public func open(_ state: inout AppState) -> [Effect] {
        if let modal = state.modal, selection(in: modal) != nil { return state.closeOverlay() }
        state.modal = modal(selection: reopening(in: state))
        return []
    }

    /// The row it was left at, still one of its rows: QA going back to the fault just armed need not scroll to it again.
    public func reopening(in state: AppState) -> Int {
        min(state.panelRows[stateId] ?? 0, max(count(in: state) - 1, 0))
    }

    /// The moving keys, then its own; nil for what the shell does.
    func handle(_ command: Command, at selection: Int, in state: inout AppState) -> [Effect]? {
        let count = count(in: state), last = max(count - 1, 0)
        let target: Int
        switch command {
        case .up, .down:
            guard count > 0 else { return [] }
            target = (selection + (command == .up ? -1 : 1) + count) % count
        case .pageUp: target = max(selection - Keymap.page, 0)
        case .pageDown: target = min(selection + Keymap.page, last)
        case .first: target = 0
        case .last: target = last
        default: return act(command, on: selection, in: &state)
        }
        state.modal = modal(selection: target)
        state.panelRows[stateId] = target
        return []
    }
}

/// A panel that needs no modal case of its own: `Modal.panel(id, selection)`.
public protocol NamedListPanel: ListPanel {
    var id: PanelID { get }
}

extension NamedListPanel {
    public func selection(in modal: Modal) -> Int? {
        if case let .panel(id, selection) = modal, id == self.id { return selection }
        return nil
    }

    public func modal(selection: Int) -> Modal {
        .panel(id, selection: selection)
    }
}
