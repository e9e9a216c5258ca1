import Foundation
import IAPCore

extension NotificationDelivery {
    /// "DID_FAIL_TO_RENEW/GRACE_PERIOD": Apple's own names, the same in both languages (a server's logs use them).
    var name: String { type + (subtype.map { "/" + $0 } ?? "") }

    /// The inspector's row: "DID_RENEW tx 1000000004 · retry 2/5 at 12 Dec 14:03 (HTTP 500)".
    public func row(_ lang: Language) -> String {
        name + (transactionId.map { " tx \($0)" } ?? "") + " · " + stateWords[lang]
    }

    /// The timeline's line, told when an attempt ends.
    public var attemptWords: Localized {
        Localized(en: "Apple → server: \(name) ", zh: "Apple → 服务器:\(name) ") + stateWords
    }

    var stateWords: Localized {
        let why = lastError.map { Localized(en: " (\($0))", zh: "(\($0))") } ?? Localized("")
        switch state {
        case .notSent:
            return Localized(en: "not sent (no --notify)", zh: "未发送(未指定 --notify)")
        case .sending:
            return Localized(en: "sending…", zh: "发送中…")
        case let .retrying(retry, count, next):
            return Localized(en: "retry \(retry)/\(count) at \(Self.time(next, .en))", zh: "\(Self.time(next, .zh)) 第 \(retry)/\(count) 次重试") + why
        case let .sent(retries) where retries == 0:
            return Localized(en: "sent", zh: "已送达")
        case let .sent(retries):
            return Localized(en: "sent after \(retries) \(retries == 1 ? "retry" : "retries")", zh: "重试 \(retries) 次后送达")
        case let .failed(retries):
            return Localized(en: "failed after \(retries) \(retries == 1 ? "retry" : "retries")", zh: "重试 \(retries) 次后仍失败") + why
        case .deliveredTwice:
            return Localized(en: "sent twice (notification-twice)", zh: "送达两次(notification-twice)")
        case .lost:
            return Localized(en: "lost on the way: Apple counts it sent, only Notification History has it (notification-lost)",
                             zh: "途中丢失:Apple 记为已送达,只有通知历史里有它(notification-lost)")
        case let .heldBack(until):
            return Localized(en: "held back: goes after the next one, by \(Self.time(until, .en)) (notification-out-of-order)",
                             zh: "被压住:在下一条之后发送,最迟 \(Self.time(until, .zh))(notification-out-of-order)")
        case let .delayed(until):
            return Localized(en: "delayed to \(Self.time(until, .en)) (notification-delayed)",
                             zh: "推迟到 \(Self.time(until, .zh)) 发送(notification-delayed)")
        }
    }

    /// "12 Dec 14:03" / "12月12日 14:03", in UTC: the store's calendar, as the subscription lines date it.
    static func time(_ date: Date, _ lang: Language) -> String {
        SubscriptionStatus.day(date, lang) + " " + date.formatted(clock)
    }

    /// "14:03" in UTC; the day and the time are put together by hand, as a locale's own pattern adds words ("at").
    private static let clock = Date.FormatStyle(date: .omitted, time: .omitted, locale: Locale(identifier: "en_GB"),
                                                timeZone: TimeZone(identifier: "UTC")!).hour(.twoDigits(amPM: .omitted)).minute(.twoDigits)
}
