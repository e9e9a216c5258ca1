import IAPCore

/// What each fault does, as the panel and `iapsim faults` say it: one row per fault, both languages in the row.
extension Fault {
    public var summary: Localized {
        switch self {
        case .paymentsDisabled: Localized(en: "canMakePayments is off on this device", zh: "此设备关闭了 canMakePayments")
        case .productsEmpty: Localized(en: "the product request answers an empty list", zh: "商品请求返回空列表")
        case .productsFail: Localized(en: "the product request fails", zh: "商品请求失败")
        case .productsSlow: Localized(en: "the product request answers after VALUE s", zh: "商品请求 VALUE 秒后才返回")
        case .userCancels: Localized(en: "the user taps Cancel on the payment sheet", zh: "用户在支付界面点了取消")
        case .purchaseFails: Localized(en: "the store fails every payment", zh: "商店让每笔支付都失败")
        case .askToBuy: Localized(en: "Ask to Buy: the payment waits for a parent, whose answer 10 s later is: VALUE",
                                  zh: "“购买前询问”:支付等家长决定,10 秒后结果为 VALUE")
        case .observerDelayed: Localized(en: "the observer (StoreKit 2: Transaction.updates) hears of a payment VALUE s after it went through",
                                         zh: "支付完成 VALUE 秒后观察者(StoreKit 2:Transaction.updates)才收到通知")
        case .observerLost: Localized(en: "the observer (StoreKit 2: Transaction.updates) never hears of the payment until the app is relaunched",
                                      zh: "观察者(StoreKit 2:Transaction.updates)收不到支付通知,直到应用重启")
        case .emptyApplicationUsername: Localized(en: "the store returns transactions without applicationUsername (StoreKit 2: without appAccountToken)",
                                                  zh: "商店返回的交易没有 applicationUsername(StoreKit 2:没有 appAccountToken)")
        case .receiptEmpty: Localized(en: "the app receipt is empty (as right after a purchase, before a refresh)",
                                      zh: "应用收据为空(如刚购买后、刷新前)")
        case .unverifiedTransaction: Localized(en: "StoreKit 2: the signed transaction the app gets fails one check: VALUE (signature: its signature; bundle: another app's bundle id; environment: Production)",
                                               zh: "StoreKit 2:应用拿到的签名交易有一项校验不过:VALUE(签名、别的应用的 bundle id、Production 环境)")
        case .failedThenPurchased: Localized(en: "the payment first reports failed, then purchased 2 s later (interrupted purchase)",
                                             zh: "支付先报告失败,2 秒后又报告已购买(购买被中断)")
        case .duplicateCallback: Localized(en: "the observer hears of each payment twice", zh: "每笔支付观察者都收到两次通知")
        case .finishNotFound: Localized(en: "finishTransaction cannot find the transaction (it stays in the queue)",
                                        zh: "finishTransaction 找不到交易(交易留在队列中)")
        case .billingFails: Localized(en: "a renewal's billing attempts fail, one a day, VALUE in all: Apple retries through the grace period, then the service stops until one succeeds (it gives up after 60 days)",
                                      zh: "续期扣款每天失败一次,共 VALUE 次:Apple 在宽限期内重试,之后服务停止,直到扣款成功(60 天后放弃)")
        case .renewalWhileClosed: Localized(en: "at the next launch the app was closed through the next renewal: it arrives without an order",
                                            zh: "下次启动时,下一次续期已在应用关闭期间发生:交易到达时没有订单")
        case .refund: Localized(en: "Apple refunds the next purchase VALUE s after it goes through",
                                zh: "Apple 在下一笔购买完成 VALUE 秒后退款")
        case .restoreFails: Localized(en: "Restore Purchases answers with an error: nothing comes back", zh: "恢复购买返回错误:没有任何购买被恢复")
        case .notificationTwice: Localized(en: "--notify/--server-api: Apple delivers each notification twice, same notificationUUID, same bytes",
                                           zh: "--notify/--server-api:Apple 把每条通知送达两次,notificationUUID 和内容都相同")
        case .notificationOutOfOrder: Localized(en: "--notify/--server-api: a notification is held back and delivered after the next one (an hour at most)",
                                                zh: "--notify/--server-api:一条通知被压住,在下一条送达之后才送达(最多一小时)")
        case .notificationLost: Localized(en: "--notify/--server-api: a notification never reaches the server, though Apple counts it delivered: only Notification History has it",
                                          zh: "--notify/--server-api:一条通知没有到达服务器,但 Apple 记为已送达:只有通知历史里有它")
        case .notificationDelayed: Localized(en: "--notify/--server-api: a notification's first attempt comes VALUE s late (store's clock): later ones pass it",
                                             zh: "--notify/--server-api:一条通知的首次发送晚 VALUE 秒(商店时钟):之后的通知先到")
        case .backendDown: Localized(en: "the backend is unreachable: orders cannot be created or verified",
                                     zh: "后端不可达:无法创建订单,也无法验证")
        case .backendTimeout: Localized(en: "the backend does the work but the answer never arrives (timeout after 10 s)",
                                        zh: "后端做完了处理,但回应没有送达(10 秒后超时)")
        case .backend5xx: Localized(en: "the backend answers HTTP VALUE without doing anything", zh: "后端什么也不做,直接返回 HTTP VALUE")
        case .backendSlow: Localized(en: "the backend answers VALUE s later than usual", zh: "后端比平常晚 VALUE 秒回应")
        case .verifyStatus: Localized(en: "Apple's verifyReceipt answers status VALUE at every endpoint",
                                      zh: "Apple 的 verifyReceipt 在每个地址都返回状态 VALUE")
        case .verificationPending: Localized(en: "the backend answers \"still verifying\" VALUE times before the real answer; the client polls",
                                             zh: "后端先回答 VALUE 次“仍在验证”,再给出真实结果;客户端轮询")
        case .orderMissing: Localized(en: "the backend has lost the order: it credits the requester and makes a new one",
                                      zh: "后端丢失了订单:为请求者入账并新建订单")
        case .productMismatch: Localized(en: "the order names another product than the one paid: the backend credits what was paid",
                                         zh: "订单上的商品与实际付款的不同:后端按实付商品入账")
        case .ledgerByTransactionId: Localized(en: "the backend keys its ledger on the transaction id, not the original: a free re-buy is credited again",
                                               zh: "后端按交易 ID 而不是原始交易 ID 记账:免费的重复购买会再次入账")
        case .crashAt: Localized(en: "the app dies (as kill -9) just before its next VALUE step", zh: "应用在下一次 VALUE 步骤前崩溃(如 kill -9)")
        case .background: Localized(en: "the app is in the background: no automatic retries until it comes back",
                                    zh: "应用在后台:回到前台前不会自动重试")
        case .jailbroken: Localized(en: "the device is jailbroken: the app refuses purchases", zh: "设备已越狱:应用拒绝购买")
        }
    }
}

extension Fault {
    /// What the fault does to an app written against StoreKit 2, in its words, where they differ from StoreKit 1's.
    public var storeKit2Summary: Localized? {
        switch self {
        case .paymentsDisabled: Localized(en: "AppStore.canMakePayments is false on this device", zh: "此设备的 AppStore.canMakePayments 为 false")
        case .productsEmpty: Localized(en: "Product.products(for:) returns an empty list", zh: "Product.products(for:) 返回空列表")
        case .productsFail: Localized(en: "Product.products(for:) throws", zh: "Product.products(for:) 抛出错误")
        case .productsSlow: Localized(en: "Product.products(for:) returns after VALUE seconds", zh: "Product.products(for:) VALUE 秒后才返回")
        case .userCancels: Localized(en: "the user taps Cancel: purchase(options:) returns .userCancelled", zh: "用户点了取消:purchase(options:) 返回 .userCancelled")
        case .purchaseFails: Localized(en: "purchase(options:) throws StoreKitError.unknown for every payment", zh: "每笔支付 purchase(options:) 都抛出 StoreKitError.unknown")
        case .observerDelayed: Localized(en: "Transaction.updates delivers a transaction VALUE seconds late", zh: "Transaction.updates 晚 VALUE 秒才送来交易")
        case .observerLost: Localized(en: "Transaction.updates never delivers the transaction until the app is relaunched",
                                      zh: "Transaction.updates 收不到交易,直到应用重启")
        case .emptyApplicationUsername: Localized(en: "the store returns transactions without their appAccountToken", zh: "商店返回的交易没有 appAccountToken")
        case .duplicateCallback: Localized(en: "Transaction.updates delivers each transaction twice", zh: "Transaction.updates 把每笔交易送来两次")
        case .finishNotFound: Localized(en: "Transaction.finish() does not take: the transaction stays in Transaction.unfinished",
                                        zh: "Transaction.finish() 没有生效:交易仍在 Transaction.unfinished 中")
        case .receiptEmpty: Localized(en: "the app receipt is empty: an app written against StoreKit 2 never reads it, so nothing changes",
                                      zh: "应用收据为空:基于 StoreKit 2 的应用从不读取它,因此没有任何影响")
        case .restoreFails: Localized(en: "AppStore.sync() throws: nothing comes back", zh: "AppStore.sync() 抛出错误:没有任何购买被同步回来")
        case .verifyStatus: Localized(en: "Apple's App Store Server API fails as verifyReceipt's status VALUE says: try again later (21005, 21009, 21100–21199), ask the other environment (21007, 21008), or refuse",
                                      zh: "Apple 的 App Store Server API 按 verifyReceipt 状态码 VALUE 的含义失败:稍后重试(21005、21009、21100–21199)、改问另一环境(21007、21008)或拒绝")
        default: nil
        }
    }
}

extension Fault.Party {
    /// The panel's party column; in English the id itself.
    public var name: Localized {
        switch self {
        case .store: Localized(en: rawValue, zh: "商店")
        case .backend: Localized(en: rawValue, zh: "后端")
        case .app: Localized(en: rawValue, zh: "应用")
        }
    }
}

extension FaultPanelRow {
    public var summary: Localized {
        switch self {
        case let .fault(fault): fault.summary
        case .crashNow: Localized(en: "the app dies this instant, as with kill -9; relaunch to see the recovery",
                                  zh: "应用立即崩溃(如 kill -9);重启后可看到恢复过程")
        case .reinstall: Localized(en: "delete and reinstall the app: the sandbox goes, the keychain and the store's queue stay",
                                   zh: "删除并重装应用:沙盒清空,钥匙串和商店队列保留")
        }
    }

    public func summary(_ lang: Language, storeKit: StoreKitMode = .one) -> String {
        if storeKit == .two, case let .fault(fault) = self, let words = fault.storeKit2Summary { return words[lang] }
        return summary[lang]
    }
}
