import IAPCore

/// The app state as the widgets' data: one small function per widget, each reading only what its widget shows.
struct StateView {
    let state: AppState
    let theme: Theme

    var lang: Language { state.lang }

    func productTitle(_ id: String?) -> String {
        guard let id else { return "" }
        return state.product(id)?.title[lang] ?? id
    }

    /// "Monthly VIP · ¥30", or at the promotional or win-back offer `offerId` the purchase asks for: "Monthly VIP · ¥12/month ×3".
    /// With the billing plan `plan` (monthly with a 12-month commitment): "Yearly VIP · ¥28/month ×12".
    /// With the intro offer `intro`: "Monthly VIP · Free for 1 week".
    func productLine(_ id: String?, offer offerId: String? = nil, plan: BillingPlan? = nil, intro: IntroOffer? = nil) -> String {
        guard let id else { return "" }
        guard let product = state.product(id) else { return id }
        let offer = offerId.flatMap { product.subscription?.offer(asked: $0) }
        let commitment = plan == .monthly ? product.subscription?.monthlyCommitment : nil
        return "\(product.title[lang]) · \(offer.map(offerPrice) ?? commitment.map(commitmentPrice) ?? intro?.line[lang] ?? product.price[lang])"
    }

    /// The plan's price each month for its months: "¥28/month ×12".
    func commitmentPrice(_ plan: CommitmentPlan) -> String {
        "\(plan.monthlyPrice[lang])\(CommitmentPlan.billingPeriod.perPrice[lang]) ×\(CommitmentPlan.billingPeriods)"
    }

    /// An offer's price for its periods: "¥12/month ×3", "Free/month ×1".
    func offerPrice(_ offer: SubscriptionOffer) -> String {
        "\(offer.terms.price?[lang] ?? Text.offerFree(lang))\(offer.terms.period.perPrice[lang]) ×\(offer.terms.periods)"
    }

    /// What the order paid, as the product list would say it now: its value in the screen's language, else the words an
    /// earlier version kept, else the catalog's price (the catalog gave no amount).
    func orderLine(_ order: PendingOrder?) -> String {
        guard let order else { return "" }
        guard let product = state.product(order.productId) else { return order.productId }
        let price = switch order.price {
        case let .value(money): money.words(lang)
        case let .shown(text): text
        case nil: product.price[lang]
        }
        return "\(product.title[lang]) · \(price)"
    }
}
