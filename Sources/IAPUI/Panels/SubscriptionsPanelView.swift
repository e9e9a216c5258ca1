import IAPCore

extension SubscriptionsPanel: PanelView {
    func box(_ view: StateView, selection: Int) -> any Widget {
        view.subscriptionPanel(selection: selection)
    }

    func words(_ command: Command) -> KeyWords? {
        switch command {
        case .manageSubscriptions: KeyWords(Localized(en: "manage subscriptions", zh: "管理订阅"), hint: Localized(en: "subscriptions", zh: "订阅"),
                                            section: .productList)
        case .toggleAutoRenew: KeyWords(Localized(en: "cancel / resume auto-renew", zh: "取消 / 恢复自动续期"),
                                        hint: Localized(en: "auto-renew on/off", zh: "自动续期开/关"), section: .panels)
        case .agreeToPrice: KeyWords(Localized(en: "agree to a new price", zh: "同意新价格"), section: .panels)
        default: nil
        }
    }
}

extension StateView {
    /// Settings › Subscriptions: each of the user's subscriptions with its status; under the list, the selected one's
    /// place in its group and what comes next for it, and what Enter does to it.
    func subscriptionPanel(selection: Int) -> SubscriptionPanel {
        let list = state.subscriptions
        let rows = list.map { SubscriptionPanel.Row(title: productTitle($0.productId), status: $0.line(lang, now: state.now), statusStyle: statusStyle($0)) }
        let selected = list.indices.contains(selection) ? list[selection] : nil
        let hint: Text = switch selected {
        case let selected? where !selected.isOver: selected.willAutoRenew ? .subHintCancel : .subHintResume
        default: .escClose
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
        return [place, next(status, from: product)] + priceIncrease(status)
    }

    /// A price increase waiting for the next renewal: whether the user agreed, and what `p` does.
    private func priceIncrease(_ status: SubscriptionStatus) -> [String] {
        switch status.priceIncrease {
        case .pending?: [Text.subPriceIncrease(lang)]
        case .accepted?: [Text.subPriceAgreed(lang)]
        case nil: []
        }
    }

    /// What the next renewal charges, and whether that changes the plan; or why there will be none.
    private func next(_ status: SubscriptionStatus, from current: Product?) -> String {
        // Turned off while Apple retries the charge: Apple does not try again, and the next attempt's day ends it.
        if status.retryStopped { return Text.subRetryStopped(lang) }
        switch status.state {
        // Inside a 12-month commitment the months left are still billed.
        case .cancelled: return status.billingPlan == .monthly ? status.dated(.subCommitmentOff, lang, now: state.now) : Text.subAutoRenewOff(lang)
        case .gracePeriod: return Text.subRetrying(lang)
        case .billingRetry: return status.dated(.subRetryingOff, lang, now: state.now)
        case .expired, .revoked: return Text.subOver(lang)
        case .active, .trial: break
        }
        let renewal = status.renewsAs.flatMap(state.product) ?? current
        // An offer's period still to come, or a month of a commitment, is what the renewal charges.
        let terms = renewal?.subscription
        let offer = status.renewalOffer.flatMap { left in
            terms?.offer(named: left.id).map { $0.terms.renewalCharge(periods: left.periods, then: price(renewal), lang) }
        }
        let plan = status.billingPlan == .monthly ? terms?.monthlyCommitment : nil
        let charged = offer ?? plan?.monthly(lang) ?? price(renewal)
        let line = Text.subNext(lang).replacingOccurrences(of: "{product}", with: renewal?.title[lang] ?? status.renewsAs ?? status.productId)
            .replacingOccurrences(of: "{price}", with: charged)
        guard status.renewsAs != nil, let from = current?.subscription?.level, let to = renewal?.subscription?.level else { return line }
        // An upgrade never waits for the renewal; a move to a lower level (a higher number) or across the same one does.
        return line + (to > from ? Text.subDowngrade(lang) : to == from ? Text.subCrossgrade(lang) : "")
    }

    /// "¥30/month": a subscription's price with its period.
    private func price(_ product: Product?) -> String {
        guard let product else { return "" }
        return product.price[lang] + (product.subscription?.period.perPrice[lang] ?? "")
    }
}
