import Foundation
import IAPCore

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

    /// The most a price may be: above any App Store price tier in any currency.
    static let highest: Decimal = 999_999_999

    /// What a `displayPrice` must be, for messages.
    static let expected = "an amount of 0 to 999,999,999 in digits with at most one '.' (e.g. 9.99)"

    /// The price shown for `displayPrice` ("9.9", "99"); nil when it is not an amount in range.
    func format(_ displayPrice: String) -> String? {
        guard let amount = money(displayPrice)?.amount else { return nil }
        var style = Decimal.FormatStyle.Currency(code: currency, locale: locale)
        if amount == amount.rounded() { style = style.precision(.fractionLength(0)) }
        return amount.formatted(style)
    }

    /// The amount of `displayPrice` in the storefront's currency; nil when it is not an amount in range.
    func money(_ displayPrice: String) -> Money? {
        let trimmed = displayPrice.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              trimmed.filter({ $0 == "." }).count <= 1,
              let amount = Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX")), amount <= Self.highest else {
            return nil
        }
        return Money(amount, currency)
    }

    /// The price shown for `displayPrice` at `location`, or the problem that skips its product.
    func checked(_ displayPrice: String?, at location: String) throws -> String {
        guard let displayPrice else { throw Problem(location: location, message: "missing; give \(Self.expected)") }
        guard !displayPrice.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw Problem(location: location, message: "empty: no price was filled in; give \(Self.expected)")
        }
        guard let text = format(displayPrice) else { throw Problem(location: location, message: "\"\(displayPrice)\" is not \(Self.expected)") }
        return text
    }
}

private extension Decimal {
    func rounded() -> Decimal {
        var value = self, result = Decimal()
        NSDecimalRound(&result, &value, 0, .plain)
        return result
    }
}
