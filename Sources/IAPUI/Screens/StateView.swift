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

    func productLine(_ id: String?) -> String {
        guard let id else { return "" }
        guard let product = state.product(id) else { return id }
        return "\(product.title[lang]) · \(product.price[lang])"
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
