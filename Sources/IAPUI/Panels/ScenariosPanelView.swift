import IAPCore

extension ScenariosPanel: PanelView {
    /// The shipped scenarios to start, with what the selected one shows.
    func box(_ view: StateView, selection: Int) -> any Widget {
        let lang = view.lang, theme = view.theme, list = view.state.scenarios
        let shows = list.indices.contains(selection) ? [list[selection].shows[lang]] : []
        return ListBox(title: Text.scenariosTitle(lang), rows: list.map { ScrollingList.line($0.name, style: theme.plain) }, selection: selection,
                       margin: 1, details: ListBox.Details(lines: shows, wrapped: true, height: 2, style: theme.dimmed),
                       hint: list.isEmpty ? nil : Text.scenariosHint(lang), empty: (Text.noScenarios(lang), theme.dimmed), theme: theme)
    }

    func words(_ command: Command) -> KeyWords? {
        command == .scenarios ? KeyWords(Localized(en: "scenarios: known loss cases", zh: "场景:已知丢单情形"), section: .productList) : nil
    }
}
