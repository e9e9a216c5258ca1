import Foundation
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

    /// "Monthly VIP · ¥30", or at what the purchase is charged instead: a promotional or win-back offer ("Monthly VIP ·
    /// ¥12/month ×3"), the 12-month plan ("Yearly VIP · ¥28/month ×12"), the intro offer ("Monthly VIP · Free for 1 week").
    func productLine(_ id: String?, charge: HUD.Charge? = nil) -> String {
        guard let id else { return "" }
        guard let product = state.product(id) else { return id }
        let offer = charge?.offerId.flatMap { product.subscription?.offer(asked: $0) }
        let commitment = charge?.billingPlan == .monthly ? product.subscription?.monthlyCommitment : nil
        let price = charge?.free == true ? Text.offerFree(lang)
            : offer.map(offerPrice) ?? commitment.map { "\($0.monthly(lang)) ×\(CommitmentPlan.billingPeriods)" }
        return "\(product.title[lang]) · \(price ?? charge?.intro?.line[lang] ?? product.price[lang])"
    }

    /// An offer's price for its periods, as the intro offer's is said: "¥12/month ×3", "Free for 1 month".
    func offerPrice(_ offer: SubscriptionOffer) -> String {
        offer.terms.offerLine[lang]
    }

    /// "next in 3s": when an order is tried again, counted from the screen's now (0 once due), as the HUD and the
    /// inspector both say it.
    func nextRetryWords(at date: Date) -> String {
        "\(Text.nextRetry(lang)) \(max(Int(date.timeIntervalSince(state.now).rounded(.up)), 0))s"
    }

    /// What the order paid, as the product list would say it now: its value in the screen's language, else the words an
    /// earlier version kept, else the catalog's price (the catalog gave no amount).
    func orderLine(_ order: PendingOrder?) -> String {
        guard let order else { return "" }
        guard let product = state.product(order.productId) else { return order.productId }
        let price = switch order.price {
        case let .value(money): money.amount == 0 ? Text.offerFree(lang) : money.words(lang)
        case let .shown(text): text
        case nil: product.price[lang]
        }
        return "\(product.title[lang]) · \(price)"
    }
}
