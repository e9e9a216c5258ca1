/// Every list panel, registered once: the keymap, the shell, the state ids and the screens read this list.
public enum ListPanels {
    public static let all: [any ListPanel] = [FaultsPanel(), ScenariosPanel(), StateCatalogPanel(), SubscriptionsPanel(), DevicesPanel()]

    static let contexts = Set(all.map(\.context))

    /// The panel on screen, and its selection.
    public static func shown(in modal: Modal?) -> (panel: any ListPanel, selection: Int)? {
        guard let modal else { return nil }
        for panel in all {
            if let selection = panel.selection(in: modal) { return (panel, selection) }
        }
        return nil
    }

    static func opened(by command: Command) -> (any ListPanel)? {
        all.first { $0.opens == command }
    }
}
