import Foundation
import IAPCore

extension Money {
    /// In the screen's language, with the number conventions of the currency's own country (ISO 4217 codes begin
    /// with it: CNY, China): ¥30 in both languages; a yen price reads ¥980 in English and JP¥980 in Chinese, where ¥
    /// alone is the yuan. A whole amount shows no decimals, as the catalog's prices do.
    public func words(_ lang: Language) -> String {
        let language = lang == .zh ? "zh_Hans" : "en"
        var style = Decimal.FormatStyle.Currency(code: currency, locale: Locale(identifier: "\(language)_\(currency.prefix(2))"))
        var whole = Decimal(), rounding = amount
        NSDecimalRound(&whole, &rounding, 0, .plain)
        if whole == amount { style = style.precision(.fractionLength(0)) }
        return amount.formatted(style)
    }
}
