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
}
