import IAPCore

/// A list panel's screen: the box it draws, the words of its keys, and, for a panel registered since the state catalog
/// and the gallery were written, its explanation and its gallery picture. Found by casting the core's panels
/// (`ListPanels.all`), so that a panel's screen is written beside nothing else.
protocol PanelView: ListPanel {
    func box(_ view: StateView, selection: Int) -> any Widget
    /// The words of its own keys, and where `?` lists them.
    func words(_ command: Command) -> KeyWords?
    var explanation: StateExplanation? { get }
    /// Its picture in the gallery: the product list with the panel open over it.
    var gallery: (@Sendable (inout AppState) -> Void)? { get }
}

extension PanelView {
    var explanation: StateExplanation? { nil }
    var gallery: (@Sendable (inout AppState) -> Void)? { nil }
}

extension ListPanels {
    /// The screens of the panels registered since the state catalog and the gallery were written.
    static var later: [any PanelView] {
        all.compactMap { $0 as? any PanelView }.filter { $0.explanation != nil }
    }
}

extension StateView {
    /// The list panel `modal` shows, if it is one.
    func listPanel(_ modal: Modal?) -> (any Widget)? {
        guard let (panel, selection) = ListPanels.shown(in: modal), let view = panel as? any PanelView else { return nil }
        return view.box(self, selection: selection)
    }
}
