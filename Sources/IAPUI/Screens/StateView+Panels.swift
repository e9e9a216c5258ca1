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

    /// Settings › Subscriptions: each of the user's subscriptions with its status; under the list, the selected one's
    /// place in its group and what comes next for it, and what Enter does to it.
    func subscriptionPanel(selection: Int) -> SubscriptionPanel {
        let list = state.subscriptions
        let rows = list.map { SubscriptionPanel.Row(title: productTitle($0.productId), status: $0.line(lang), statusStyle: statusStyle($0)) }
        let selected = list.indices.contains(selection) ? list[selection] : nil
        let hint: Text = switch selected?.state {
        case .active?, .trial?, .gracePeriod?, .billingRetry?: .subHintCancel
        case .cancelled?: .subHintResume
        case .expired?, .revoked?, nil: .escClose
        }
        return SubscriptionPanel(title: Text.subscriptionsTitle(lang), rows: rows, selection: selection,
                                 details: selected.map(details) ?? [], hint: hint(lang), empty: Text.noSubscriptions(lang), theme: theme)
    }

    private func details(_ status: SubscriptionStatus) -> [String] {
        let product = state.product(status.productId)
        let levels = Set(state.products.compactMap { $0.subscription?.group == status.group ? $0.subscription?.level : nil })
        let place = product?.subscription.map { terms in
            Text.subGroup(lang).replacingOccurrences(of: "{group}", with: status.group)
                .replacingOccurrences(of: "{level}", with: String(terms.level)).replacingOccurrences(of: "{levels}", with: String(levels.count))
                .replacingOccurrences(of: "{price}", with: price(product))
        } ?? status.group
        return [place, next(status, from: product)]
    }

    /// What the next renewal charges, and whether that changes the plan; or why there will be none.
    private func next(_ status: SubscriptionStatus, from current: Product?) -> String {
        switch status.state {
        case .cancelled: return Text.subAutoRenewOff(lang)
        case .gracePeriod: return Text.subRetrying(lang)
        case .billingRetry: return status.dated(.subRetryingOff, lang)
        case .expired, .revoked: return Text.subOver(lang)
        case .active, .trial: break
        }
        let renewal = status.renewsAs.flatMap(state.product) ?? current
        let line = Text.subNext(lang).replacingOccurrences(of: "{product}", with: renewal?.title[lang] ?? status.renewsAs ?? status.productId)
            .replacingOccurrences(of: "{price}", with: price(renewal))
        guard status.renewsAs != nil, let from = current?.subscription?.level, let to = renewal?.subscription?.level else { return line }
        // An upgrade never waits for the renewal; a move to a lower level (a higher number) or across the same one does.
        return line + (to > from ? Text.subDowngrade(lang) : to == from ? Text.subCrossgrade(lang) : "")
    }

    /// "¥30/month": a subscription's price with its period.
    private func price(_ product: Product?) -> String {
        guard let product else { return "" }
        return product.price[lang] + (product.subscription?.period.perPrice[lang] ?? "")
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
        let backend = view.credits.map { ("\($0.transactionId) +\($0.coins)", theme.good) } + view.support.map { line -> (String, Style) in
            switch line {
            case let .retryingApple(id, attempts, status): ("\(id) \(Text.retryingApple(lang)) ×\(attempts) (\(status))", theme.waiting)
            case let .clientAlarm(kind, user, text): ("\(Text.clientAlarms(lang)) \(kind) \(user ?? "—"): \(text)", theme.bad)
            case let .replay(id, by, first): ("\(id) \(Text.replayed(lang)) \(by) (\(first))", theme.waiting)
            }
        }
        let backendColumn = if let elsewhere = view.creditsKeptAt {
            InspectorColumns.Column(heading: "\(Text.inspectorBackend(lang)) \(who)",
                                    rows: [(Text.creditsKeptAt(lang), theme.dimmed), (elsewhere, theme.plain)])
        } else {
            InspectorColumns.Column(heading: "\(Text.inspectorBackend(lang)) \(who) (\(view.creditTotal))", rows: backend)
        }
        return InspectorColumns(columns: [
            InspectorColumns.Column(heading: "\(Text.inspectorStore(lang)) (\(view.storeTotal))", rows: store),
            InspectorColumns.Column(heading: "\(Text.inspectorClient(lang)) \(who) (\(state.pendingCount))", rows: client + unclaimed),
            backendColumn,
        ], theme: theme)
    }

    func timeline(_ view: InspectorView) -> TimelinePane {
        let start = view.timeline.first?.at ?? state.now
        return TimelinePane(heading: Text.inspectorTimeline(lang),
                            entries: view.timeline.map { (Self.elapsed($0.at.timeIntervalSince(start)), $0.text) }, theme: theme)
    }

    func notifications(_ view: InspectorView) -> TimelinePane {
        TimelinePane(heading: Text.inspectorNotifications(lang), entries: view.notifications.map { ("", $0.row(lang)) }, theme: theme)
    }

    /// Seconds to the tenth while they fit the column; past a day or so (a subscription's renewals, `wait` of a year),
    /// days and hours in the same eight columns.
    static func elapsed(_ seconds: TimeInterval) -> String {
        guard seconds >= 100_000 else { return String(format: "%7.1fs", seconds) }
        let hours = Int(seconds / 3_600)
        return String(format: "%3dd %02dh", hours / 24, hours % 24)
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
