import Foundation
import IAPCore

/// The fault panel, the scenario list, the inspector and the support-training overlays.
extension StateView {
    func faultPanel(selection: Int) -> FaultPanel {
        let rows = FaultPanelRow.all.map { row -> FaultPanel.Row in
            guard case let .fault(fault) = row else {
                return FaultPanel.Row(status: "·", party: Fault.Party.app.name[lang], label: row.label, summary: row.summary(lang))
            }
            let arm = state.faults.arm(fault)
            return FaultPanel.Row(status: arm.map { $0.once ? "1" : "x" } ?? " ", party: fault.party.name[lang],
                                  label: state.faults.label(fault), summary: row.summary(lang))
        }
        return FaultPanel(title: Text.faultPanel(lang), rows: rows, selection: selection, hint: Text.faultPanelHint(lang), theme: theme)
    }

    func scenarioList(selection: Int) -> ScenarioList {
        let list = state.scenarios
        return ScenarioList(title: Text.scenariosTitle(lang), names: list.map(\.name), selection: selection,
                            shows: list.indices.contains(selection) ? list[selection].shows[lang] : nil, hint: Text.scenariosHint(lang),
                            empty: Text.noScenarios(lang), theme: theme)
    }

    /// Settings › Subscriptions: each of the user's subscriptions with its status; under the list, what the selected
    /// one renews as when that differs.
    func subscriptionList(selection: Int) -> ScenarioList {
        let list = state.subscriptions
        let title = { (id: String) in state.products.first { $0.id == id }?.title[lang] ?? id }
        let renewsAs = list.indices.contains(selection) ? list[selection].renewsAs.map {
            Text.subRenewsAs(lang).replacingOccurrences(of: "{product}", with: title($0))
        } : nil
        return ScenarioList(title: Text.subscriptionsTitle(lang), names: list.map { "\(title($0.productId)) · \($0.line(lang))" },
                            selection: selection, shows: renewsAs, hint: Text.subscriptionsHint(lang), empty: Text.noSubscriptions(lang),
                            theme: theme)
    }

    func inspectorColumns(_ view: InspectorView) -> InspectorColumns {
        let who = state.user ?? "—"
        let store = view.storeQueue.map {
            ("\($0.id) \(Timeline.state($0.state)[lang]) \($0.applicationUsername ?? "∅")", theme.plain)
        }
        let client = state.pendingOrders.map { order in
            let next = state.nextAttempt(for: order).map {
                " " + Text.nextRetry(lang) + " " + String(max(Int($0.timeIntervalSince(state.now).rounded(.up)), 0)) + "s"
            }
            return ("\(order.transactionId) ×\(order.attempts)\(next ?? "")", theme.plain)
        }
        // Paid transactions no evidence ties to a buyer: support's to assign (I3).
        let unclaimed = state.unclaimed.map { ("\($0.id) \(Text.unclaimed(lang))", theme.bad) }
        let backend = view.credits.map { ("\($0.transactionId) +\($0.coins)", theme.good) }
        return InspectorColumns(columns: [
            InspectorColumns.Column(heading: "\(Text.inspectorStore(lang)) (\(view.storeTotal))", rows: store),
            InspectorColumns.Column(heading: "\(Text.inspectorClient(lang)) \(who) (\(state.pendingCount))", rows: client + unclaimed),
            InspectorColumns.Column(heading: "\(Text.inspectorBackend(lang)) \(who) (\(view.creditTotal))", rows: backend),
        ], theme: theme)
    }

    func timeline(_ view: InspectorView) -> TimelinePane {
        let start = view.timeline.first?.at ?? state.now
        return TimelinePane(heading: Text.inspectorTimeline(lang),
                            entries: view.timeline.map { (String(format: "%7.1fs", $0.at.timeIntervalSince(start)), $0.text) }, theme: theme)
    }

    func explanation(stateId: String) -> ExplanationBox? {
        guard let entry = StateCatalog.entry(stateId) else { return nil }
        return ExplanationBox(title: entry.title[lang], explanation: explanation(entry), close: Text.explainClose(lang), theme: theme)
    }

    func stateBrowser(selection: Int) -> StateBrowser {
        let entries = StateCatalog.entries
        return StateBrowser(title: Text.stateCatalogTitle(lang), names: entries.map { $0.title[lang] }, selection: selection,
                            explanation: entries.indices.contains(selection) ? explanation(entries[selection]) : nil,
                            close: Text.stateCatalogClose(lang), theme: theme)
    }

    private func explanation(_ entry: StateExplanation) -> Explanation {
        Explanation(sections: [
            Explanation.Section(heading: Text.explainSees(lang), body: entry.sees[lang]),
            Explanation.Section(heading: Text.explainUnderneath(lang), body: entry.underneath[lang]),
            Explanation.Section(heading: Text.explainSupport(lang), body: entry.support[lang]),
            Explanation.Section(heading: Text.explainReach(lang), body: entry.reach),
        ], theme: theme)
    }
}
