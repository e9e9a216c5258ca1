import IAPCore

extension FaultsPanel: PanelView {
    func box(_ view: StateView, selection: Int) -> any Widget {
        let lang = view.lang, faults = view.state.faults
        let rows = FaultPanelRow.all.map { row -> FaultPanel.Row in
            guard case let .fault(fault) = row else {
                return FaultPanel.Row(status: "·", party: Fault.Party.app.name[lang], label: row.label, summary: row.summary(lang, storeKit: view.state.storeKit))
            }
            let arm = faults.arm(fault)
            // The summary speaks of the value in force: the armed one, or the one arming would use.
            let summary = row.summary(lang, storeKit: view.state.storeKit)
            return FaultPanel.Row(status: arm.map { $0.once ? "1" : "x" } ?? " ", party: fault.party.name[lang], label: faults.label(fault),
                                  summary: faults.valueInForce(fault).map { summary.replacingOccurrences(of: "VALUE", with: $0) } ?? summary)
        }
        return FaultPanel(title: Text.faultPanel(lang), rows: rows, selection: selection, hint: Text.faultPanelHint(lang), theme: view.theme)
    }

    func words(_ command: Command) -> KeyWords? {
        switch command {
        case .faultPanel: KeyWords(Localized(en: "faults, crash now, reinstall", zh: "故障、立即崩溃、重装"), section: .productList)
        case .armOnce: KeyWords(Localized(en: "arm one-shot (fault panel)", zh: "只触发一次(故障面板)"), hint: Localized(en: "once", zh: "一次"), section: .panels)
        case .nextValue, .previousValue: KeyWords(Localized(en: "set a value (fault panel)", zh: "设置取值(故障面板)"), section: .panels)
        default: nil
        }
    }
}
