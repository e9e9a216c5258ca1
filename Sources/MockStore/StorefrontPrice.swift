import Foundation

/// Prices as the App Store shows them: the storefront's currency, formatted by Foundation for the file's locale
/// (`$9.90`, `NT$99`, `₩1,500`, `¥600`, `9,99 €`). A whole amount shows no decimals; others show the currency's.
struct StorefrontPrice {
    let currency: String
    let locale: Locale
    private(set) var warnings: [String] = []

    /// `storefront`: ISO 3166 alpha-3, as Xcode writes `_storefront` ("USA", "TWN"); `locale`: `_locale` ("en_US").
    /// Without a storefront, the United States; without a locale, the storefront's own (China: zh-Hans-CN, "¥6").
    init(storefront: String?, locale: String?) {
        // "XXX" is ICU's "no currency" (Antarctica): no App Store storefront there.
        let region = storefront.map { Locale(identifier: "und_" + $0) }.flatMap { $0.currency?.identifier == "XXX" ? nil : $0 }
        if let storefront, region?.region == nil || region?.currency == nil {
            warnings.append("settings._storefront \"\(storefront)\" is not a storefront iapsim knows (ISO 3166 alpha-3, e.g. USA); prices in US dollars")
        }
        currency = region?.currency?.identifier ?? "USD"
        let own = Locale.Language(identifier: "und_" + (region?.region?.identifier ?? "US")).maximalIdentifier
        self.locale = Locale(identifier: (locale ?? own).replacingOccurrences(of: "-", with: "_"))
    }

    /// The price shown for `displayPrice` ("9.9", "99"); one that is not an amount is shown as written, with a warning.
    func format(_ displayPrice: String, at location: String) -> (text: String, warnings: [String]) {
        let trimmed = displayPrice.trimmingCharacters(in: .whitespaces)
        guard let amount = Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX")), amount >= 0,
              trimmed.allSatisfy({ $0.isNumber || $0 == "." }) else {
            let shown = trimmed.isEmpty ? "—" : trimmed
            return (shown, ["displayPrice \"\(displayPrice)\" is not an amount; shown as \"\(shown)\""])
        }
        var style = Decimal.FormatStyle.Currency(code: currency, locale: locale)
        if amount == amount.rounded() { style = style.precision(.fractionLength(0)) }
        return (amount.formatted(style), [])
    }
}

private extension Decimal {
    func rounded() -> Decimal {
        var value = self, result = Decimal()
        NSDecimalRound(&result, &value, 0, .plain)
        return result
    }
}
