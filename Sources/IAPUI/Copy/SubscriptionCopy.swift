import Foundation
import IAPCore

extension SubscriptionStatus {
    /// The status line the product list and the subscriptions panel show, dated on the store's calendar (with its year
    /// when that is not `now`'s).
    public func line(_ lang: Language, now: Date? = nil) -> String {
        let text: Text = switch state {
        case .active: .subActive
        case .trial: freeOffer ? .subFreeOffer : .subTrial
        case .cancelled: .subCancelled
        case .gracePeriod: .subBilling
        case .billingRetry: .subBillingOff
        case .expired: .subExpired
        case .revoked: .subRevoked
        }
        return dated(text, lang, now: now) + (retryStopped ? Text.subAutoRenewOffShort(lang) : "")
    }

    /// `text` with its `{date}` as this status's date, on the store's calendar (with its year when that is not `now`'s).
    func dated(_ text: Text, _ lang: Language, now: Date? = nil) -> String {
        text(lang).replacingOccurrences(of: "{date}", with: date.map { Self.day($0, lang, now: now) } ?? "")
    }

    /// The status line in both languages, for the timeline (told once, read in either), read at `now`.
    func words(at now: Date) -> Localized {
        Localized(en: line(.en, now: now), zh: line(.zh, now: now))
    }

    /// "12 Dec" / "12月12日", in UTC: the store's calendar, the same on every machine; "12 Dec 2027" / "2027年12月12日"
    /// when the year is not `now`'s, so that a yearly renewal does not read as today's.
    static func day(_ date: Date, _ lang: Language, now: Date? = nil) -> String {
        let otherYear = now.map { utc.component(.year, from: $0) != utc.component(.year, from: date) } ?? false
        return date.formatted(lang == .zh ? (otherYear ? dayYearZh : dayZh) : (otherYear ? dayYearEn : dayEn))
    }

    // Made once: the product list asks for a date on every row of every frame.
    private static let dayEn = dayStyle("en_GB"), dayZh = dayStyle("zh_Hans")
    private static let dayYearEn = dayStyle("en_GB").year(), dayYearZh = dayStyle("zh_Hans").year()
    private static let utc = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    private static func dayStyle(_ locale: String) -> Date.FormatStyle {
        Date.FormatStyle(date: .omitted, time: .omitted, locale: Locale(identifier: locale), timeZone: TimeZone(identifier: "UTC")!)
            .day().month(.abbreviated)
    }
}

extension IntroOffer {
    /// One period's price: "¥12/month", "Free/month".
    func perPeriod(_ lang: Language) -> String {
        "\(price?[lang] ?? Text.offerFree(lang))\(period.perPrice[lang])"
    }

    /// What the renewals still at this offer charge (`periods` of them, the next one first), then what the renewals
    /// after the offer do: "free for 1 month, then ¥30/month", "¥15/month for 2 months, then ¥30/month", "¥12 for 3
    /// months, then ¥30/month". A free period said alone read as if the subscription were free for good.
    func renewalCharge(periods: Int, then regular: String, _ lang: Language) -> String {
        let length = period.words(counted: true)
        let left = SubscriptionPeriod(years: period.years * periods, months: period.months * periods, weeks: period.weeks * periods,
                                      days: period.days * periods).words(counted: true)
        let charge = switch mode {
        case .freeTrial: Localized(en: "free for \(length.en)", zh: "免费\(length.zh)")[lang]
        case .payAsYouGo: Localized(en: "\(perPeriod(.en)) for \(left.en)", zh: "\(perPeriod(.zh)),共\(left.zh)")[lang]
        case .payUpFront: line[lang]
        }
        return Text.subOfferThen(lang).replacingOccurrences(of: "{offer}", with: charge).replacingOccurrences(of: "{price}", with: regular)
    }

    /// A promotional, win-back or code offer's terms, said as `line` says the intro offer's, but a free period not as a
    /// trial in Chinese (试用 is the introductory trial's word): "Free for 1 month", "免费1个月".
    var offerLine: Localized {
        mode == .freeTrial ? free(zh: "免费") : line
    }

    /// What the product list says of the intro offer to an Apple ID that may still have it: "Free for 1 week",
    /// "¥6/month ×3", "¥12 for 3 months"; "免费试用1周", "¥6/月 ×3", "¥12 3个月".
    var line: Localized {
        let length = period.words(counted: true)
        switch mode {
        case .freeTrial:
            return free(zh: "免费试用")
        case .payAsYouGo:
            let price = self.price ?? Localized("")
            return price + period.perPrice + Localized(" ×\(periods)")
        case .payUpFront:
            let price = self.price ?? Localized("")
            return Localized(en: "\(price.en) for \(length.en)", zh: "\(price.zh) \(length.zh)")
        }
    }

    /// "Free for 1 week ×2", with `zh` the Chinese word for free before the length.
    private func free(zh word: String) -> Localized {
        let length = period.words(counted: true)
        let times = periods > 1 ? " ×\(periods)" : ""
        return Localized(en: "Free for \(length.en)\(times)", zh: "\(word)\(length.zh)\(times)")
    }
}

extension CommitmentPlan {
    /// Each month's price: "¥28/month".
    func monthly(_ lang: Language) -> String {
        "\(monthlyPrice[lang])\(Self.billingPeriod.perPrice[lang])"
    }
}

extension SubscriptionPeriod {
    /// What a price is for, put right after it: "/month", "/3 days", "/1 year 6 months"; "/月", "/3天", "/1年6个月".
    public var perPrice: Localized {
        Localized("/") + words()
    }

    /// "month", "3 days", "1 year 6 months" / "月", "3天", "1年6个月": one unit alone is said bare, as prices say it,
    /// unless `counted` ("1 month", "1个月").
    func words(counted: Bool = false) -> Localized {
        let units: [(count: Int, en: (one: String, many: String), zh: (bare: String, counted: String))] = [
            (years, ("year", "years"), ("年", "年")),
            (months, ("month", "months"), ("月", "个月")),
            (weeks, ("week", "weeks"), ("周", "周")),
            (days, ("day", "days"), ("天", "天")),
        ].filter { $0.count > 0 }
        if !counted, units.count == 1, let unit = units.first, unit.count == 1 { return Localized(en: unit.en.one, zh: unit.zh.bare) }
        return Localized(en: units.map { "\($0.count) \($0.count == 1 ? $0.en.one : $0.en.many)" }.joined(separator: " "),
                         zh: units.map { "\($0.count)\($0.zh.counted)" }.joined())
    }
}

extension SubscriptionChange {
    /// The inspector's timeline line: the product, what happened, and where it stands at `now`.
    func words(at now: Date) -> Localized {
        switch self {
        case let .subscribed(status):
            said(status, now, Localized(en: "subscribed", zh: "已订阅"))
        case let .renewed(status):
            said(status, now, Localized(en: "renewed", zh: "已续期"))
        case let .recovered(status):
            said(status, now, Localized(en: "billing recovered, renewed", zh: "扣款恢复,已续期"))
        case let .billingFailed(status):
            said(status, now, Localized(en: "the renewal's charge failed", zh: "续期扣款失败"))
        case let .autoRenewOff(status):
            said(status, now, Localized(en: "auto-renew off", zh: "自动续期已关闭"))
        case let .autoRenewOn(status):
            said(status, now, Localized(en: "auto-renew back on", zh: "自动续期已恢复"))
        case let .graceEnded(status):
            said(status, now, Localized(en: "the grace period ended without a charge: service off, Apple still retries",
                                   zh: "宽限期内扣款未成功:服务暂停,Apple 仍在重试"))
        case let .expired(status, billingGaveUp):
            billingGaveUp ? said(status, now, Localized(en: "Apple stopped retrying the charge", zh: "Apple 已停止重试扣款"))
                : said(status, now, Localized(en: "ended", zh: "已结束"))
        case let .refunded(status):
            said(status, now, Localized(en: "refunded by Apple", zh: "Apple 已退款"))
        case let .planChanged(from, status):
            Localized(en: "store: plan \(from) → \(status.productId): ", zh: "商店:方案 \(from) → \(status.productId):") + status.words(at: now)
        case let .renewsAs(product?, status):
            said(status, now, Localized(en: "the next renewal charges \(product)", zh: "下次续期按 \(product) 扣款"))
        case let .renewsAs(nil, status):
            said(status, now, Localized(en: "the plan change is dropped", zh: "方案变更已撤销"))
        case let .other(status):
            Localized(en: "store: \(status.productId): ", zh: "商店:\(status.productId):") + status.words(at: now)
        }
    }

    private func said(_ status: SubscriptionStatus, _ now: Date, _ what: Localized) -> Localized {
        Localized(en: "store: \(status.productId) ", zh: "商店:\(status.productId) ") + what + Localized(en: ": ", zh: ":") + status.words(at: now)
    }
}
