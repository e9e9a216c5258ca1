import IAPCore

extension StateCatalogPanel: PanelView {
    func box(_ view: StateView, selection: Int) -> any Widget {
        view.stateBrowser(selection: selection)
    }

    func words(_ command: Command) -> KeyWords? {
        command == .stateCatalog ? KeyWords(Localized(en: "every state, explained", zh: "所有状态的说明"), section: .everywhere) : nil
    }
}

/// Every state explained, and the state on screen explained alone (`e`).
extension StateView {
    func explanation(stateId: String, page: Int = 0) -> ExplanationBox? {
        guard let entry = StateCatalog.entry(stateId) else { return nil }
        var explanation = explanation(entry)
        explanation.page = page
        return ExplanationBox(title: entry.title[lang], explanation: explanation, close: Text.explainClose(lang), turn: Text.helpTurn(lang),
                              theme: theme)
    }

    func stateBrowser(selection: Int) -> StateBrowser {
        let entries = StateCatalog.entries
        return StateBrowser(title: Text.stateCatalogTitle(lang), names: entries.map { $0.title[lang] }, selection: selection,
                            explanation: entries.indices.contains(selection) ? explanation(entries[selection]) : nil,
                            close: Text.stateCatalogClose(lang), cut: Text.stateCatalogCut(lang), theme: theme)
    }

    private func explanation(_ entry: StateExplanation) -> Explanation {
        // StoreKit 2's difference comes last, where a small terminal cuts it rather than what support should do.
        let storeKit2 = entry.storeKit2.map { [Explanation.Section(heading: Text.explainStoreKit2(lang), body: $0[lang])] } ?? []
        return Explanation(sections: [
            Explanation.Section(heading: Text.explainSees(lang), body: entry.sees[lang]),
            Explanation.Section(heading: Text.explainUnderneath(lang), body: entry.underneath[lang]),
            Explanation.Section(heading: Text.explainSupport(lang), body: entry.support[lang]),
            Explanation.Section(heading: Text.explainReach(lang), body: entry.reach[lang]),
        ] + storeKit2, theme: theme)
    }
}
