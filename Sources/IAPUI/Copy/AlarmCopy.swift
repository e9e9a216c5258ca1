import IAPCore

/// Alarms in words. Ids, codes and a database's own message stay as they are in both languages.
extension Alarm {
    public var words: Localized {
        switch self {
        case let .writeFailed(id):
            Localized(en: "order \(id) could not be written to the client store", zh: "订单 \(id) 无法写入客户端存储")
        case let .verifyFailing(id, attempts, reason):
            Localized(en: "order \(id) failed \(attempts) verifications: ", zh: "订单 \(id) 已验证失败 \(attempts) 次:") + reason.words
        case let .serverMisconfigured(id, status):
            Self.misconfigured(id, status)
        case let .readFailed(user):
            Localized(en: "could not read \(user)'s orders from the client store", zh: "无法从客户端存储读取 \(user) 的订单")
        case let .storage(party, detail):
            Localized(en: "\(party.rawValue) storage: \(detail)", zh: "\(Self.partyName(party))存储出错:\(detail)")
        case let .unattributed(id, _):
            Localized(en: "tx \(id) paid, buyer unknown: support assigns it", zh: "交易 \(id) 已付款,买家不明:待客服分配")
        case let .creditMissing(ids, checked):
            // How many were looked at: all of the latest is a lower bound, not a count.
            Localized(en: "no credit on the backend for \(ids.count) of the store's latest \(checked) finished paid transaction(s) (\(Self.list(ids))): data was lost; credit by hand",
                      zh: "商店最近完成的 \(checked) 笔已付款交易中,有 \(ids.count) 笔在后端没有入账记录(\(Self.list(ids))):数据已丢失,请人工补发")
        case let .receiptEmpty(id):
            Localized(en: "tx \(id) paid, but the app receipt is empty (Apple's known bug): the order waits and is retried",
                      zh: "交易 \(id) 已付款,但收据为空(苹果已知问题):订单保留并重试")
        case let .receiptOfAnotherAppleId(id, paidWith, signedIn):
            Localized(en: "tx \(id) was paid with Apple ID \(paidWith), but \(signedIn) is signed in, whose receipt does not have it: the order waits; sign \(paidWith) in again to verify it",
                      zh: "交易 \(id) 由 Apple ID \(paidWith) 付款,但当前登录的是 \(signedIn),其收据中没有这笔交易:订单保留;重新登录 \(paidWith) 即可验证")
        }
    }

    public func text(_ lang: Language) -> String {
        words[lang]
    }

    /// What QA should fix on the server; the order waits, unfinished, for the next launch or login.
    private static func misconfigured(_ id: String, _ status: Int) -> Localized {
        let waits = Localized(en: "order \(id) stays pending until the next launch or login",
                              zh: "订单 \(id) 保持待处理,直到下次启动或登录")
        let fix: Localized = switch status {
        case ReceiptStatus.sharedSecretMismatch:
            Localized(en: "the server's shared secret does not match the App Store's (21004): set it right, ",
                      zh: "服务器的共享密钥与 App Store 的不一致(21004):请改正后,")
        case ReceiptStatus.badRequest:
            Localized(en: "the server's request to verifyReceipt is malformed (21000): fix it, ",
                      zh: "服务器发给 verifyReceipt 的请求格式有误(21000):请修正后,")
        default:
            Localized(en: "the server is misconfigured (\(status)): check its setup, ", zh: "服务器配置有误(\(status)):请检查配置后,")
        }
        return fix + waits
    }

    private static func list(_ ids: [String]) -> String {
        ids.prefix(3).joined(separator: ", ") + (ids.count > 3 ? ", …" : "")
    }

    /// The party a storage alarm names, in Chinese.
    private static func partyName(_ party: Party) -> String {
        switch party {
        case .store: "商店"
        case .client: "客户端"
        case .backend: "后端"
        }
    }
}

/// Why a verification will be tried again (`VerifyOutcome.retry`), in words; codes and statuses stay as they are.
extension RetryReason {
    var words: Localized {
        switch self {
        case .backendUnreachable: Localized(en: english, zh: "后端不可达")
        case .backendTimedOut: Localized(en: english, zh: "后端超时")
        case .notTheContract: Localized(en: english, zh: "后端的回答不符合约定")
        case .tooLarge: Localized(en: english, zh: "后端的回答超过 1 MB")
        case let .http(code): Localized(en: english, zh: "HTTP 错误 \(code)")
        case .receiptEmpty: Localized(en: english, zh: "收据为空")
        case .verificationPending: Localized(en: english, zh: "仍在验证")
        case .notInReceipt: Localized(en: english, zh: "收据中尚无此交易")
        case let .appleUnavailable(status): Localized(en: english, zh: "Apple 暂时无法验证(\(status))")
        case let .backendRetryingApple(status): Localized(en: english, zh: "后端正在重试 Apple(\(status))")
        case let .unverified(flaw): Localized(en: english, zh: "签名交易未通过校验" + (flaw.map { "(\($0.chinese))" } ?? ""))
        }
    }
}

extension SignedTransactionFlaw {
    /// Which check failed, in Chinese.
    var chinese: String {
        switch self {
        case .signature: "签名"
        case .bundle: "bundle id"
        case .environment: "环境"
        }
    }
}
