import IAPCore

/// Every sentence the app shows, by name, each a `Localized`. SPEC's canonical strings keep their exact wording.
public enum Text: String, Sendable, CaseIterable {
    // SPEC's canonical strings
    case loading, purchasing, confirming, success, failed, cancelled, deferred, disabled
    case noProducts = "no-products"
    case unfinished
    case continueAction = "continue"
    case later
    case logoutPending = "logout-pending"
    case verifyFailed = "verify-failed"
    case jailbroken
    case alreadyOwned = "already-owned"
    case otherAccount = "other-account"
    case restoring
    /// `{n}`: how many purchases came back.
    case restored
    case nothingToRestore = "nothing-to-restore"
    /// `{date}`: the renewal, the trial's end, the subscription's end, the grace period's end.
    case subActive = "sub-active", subTrial = "sub-trial", subCancelled = "sub-cancelled", subBilling = "sub-billing", subExpired = "sub-expired"
    // the app's own
    /// An offer's free period (`{date}` its end): not the introductory trial.
    case subFreeOffer
    /// After the grace period, while Apple still retries the charge.
    case subBillingOff
    case restoreFailed, restoreInBackground
    /// Another Apple ID signed in with a payment on the sheet; the badge naming the device's Apple ID.
    case appleIdChanged, appleIdBadge
    /// Apple's sheet for a subscription the Apple ID is on already.
    case alreadySubscribed
    /// Family Sharing of a product ended (REVOKE).
    case familyRevoked
    /// A promotional offer refused (StoreKit's error, then why) or never signed; the product list's chosen offer.
    case alreadyPending, offerRefused, offerNotSigned, offerInvalidSignature, offerInvalidIdentifier, offerInvalidPrice, offerIneligible, offerChosen, offerFree, winBackOffer, monthlyPlan, winBackIneligible
    /// The offer code redemption sheet, and its refusals.
    case offerCodePrompt, offerCodeHint, offerCodeInvalid, offerCodeUsed, oneTimeCodeUsed, offerCodeLimitReached, offerCodeIneligible
    case codeRedeemed, codeRedeemedNextRenewal, offerNextRenewal, nothingChargedNow, movedByResubscription, planOfAnotherAccount
    case continuesInBackground, unclaimed
    /// Said in place of `loginHint` when a name broke the rule.
    case loginRule
    case appTitle, loginPrompt, loginHint, user, pending, balance, balanceUnknown, balanceNotRead, coins, owned, familyShared, products
    /// The product request failed (an empty list is SPEC's `no-products`); what asks again; the identifiers to buy by.
    case productsFailed, productsAskAgain, buyByIdentifier
    case stay, logoutAnyway, quitInFlight, quitNothingInFlight, yesQuit, noStay
    /// `{order}`, `{tx}`: support's question before compensating by hand.
    case compensateAsk, yesCompensate
    /// The backend's lists for support in the inspector.
    case retryingApple, clientAlarms, replayed, appleIdOrders
    /// The restore policy under a purchase moved between app users (`restorePolicy(named:)`).
    case policyTransfer, policyShare, policyKeep
    case helpTitle, helpClose, helpTurn, retryCount, nextRetry, retryOnTrigger, retryOnTriggerShort, inBackground
    /// An order in the inspector whose prompt waits for the user's Continue or Later.
    case awaitingAnswer
    /// Under "This purchase belongs to another account", for a subscription's charge credited to the account that holds it.
    case chargedForAnotherAccount, freePeriodForAnotherAccount, codeRedeemedForAnotherAccount
    case tooSmall, tooSmallQuit, consumable, nonConsumable, subscription, nonRenewing
    case orderOf, serialPolicy, alarm, backendDownBadge, servingBadge
    /// Before the StoreKit version the client runs (shown in StoreKit 2 only: StoreKit 1 is the seeds' default).
    case storeKitBadge
    /// The backend runs as a modern server (`--server-api`).
    case serverAPIBadge
    case faultPanel, faultPanelHint, scenariosTitle, scenariosHint, noScenarios
    case inspectorClient, inspectorBackend, inspectorTimeline, inspectorNotifications
    /// Above the URL of a team's own server (`--backend`), whose credits iapsim does not read.
    case creditsKeptAt
    case explainSees, explainUnderneath, explainStoreKit2, explainSupport, explainReach, explainClose, stateCatalogTitle, stateCatalogClose, stateCatalogCut
    case escCancel, escClose
    /// `{date}`: when a refunded subscription ended.
    case subRevoked
    case planChanged, subscriptionsTitle, noSubscriptions
    /// The selected subscription in the subscriptions panel. `{group}`, `{level}` of `{levels}`, `{price}` (with its period).
    case subGroup
    /// `{product}` and `{price}`: what the next renewal charges.
    case subNext
    /// An offer's renewal, then the regular price after it.
    case subOfferThen
    /// Said after `subNext` when the next renewal changes the plan.
    case subDowngrade, subCrossgrade
    /// What comes next for a subscription that will not renew as it is.
    case subAutoRenewOff, subRetrying, subOver
    /// Auto-renew turned off while Apple retries the charge: the status line's addition, and what comes next.
    case subAutoRenewOffShort, subRetryStopped
    /// `{date}`: when Apple stops retrying the charge.
    case subRetryingOff, subCommitmentOff
    /// What Enter does to the selected subscription.
    case subHintCancel, subHintResume
    /// A price increase waiting for the next renewal: not agreed to yet (what `p` does), agreed.
    case subPriceIncrease, subPriceAgreed

    public var localized: Localized {
        switch self {
        case .loading: Localized(en: "Loading products…", zh: "正在获取商品信息…")
        case .purchasing: Localized(en: "Purchasing…", zh: "正在购买…")
        case .confirming: Localized(en: "Confirming payment…", zh: "正在确认支付…")
        case .success: Localized(en: "Purchase complete", zh: "购买成功")
        case .failed: Localized(en: "Purchase failed", zh: "交易失败")
        case .cancelled: Localized(en: "Purchase cancelled", zh: "已取消购买")
        case .deferred: Localized(en: "Waiting for approval", zh: "等待批准")
        case .disabled: Localized(en: "Please enable In-App Purchases", zh: "请打开 Apple 支付")
        case .noProducts: Localized(en: "Network hiccup, please try again later", zh: "网络开小差了,请稍后重试")
        case .unfinished: Localized(en: "Unfinished order found", zh: "发现未完成订单")
        case .continueAction: Localized(en: "Continue", zh: "继续处理")
        case .later: Localized(en: "Later", zh: "稍后")
        case .logoutPending: Localized(en: "Orders still pending — log out anyway?", zh: "有订单尚未完成,仍要退出登录吗?")
        case .verifyFailed: Localized(en: "Verification failed, please contact support", zh: "验证失败,请联系客服")
        case .jailbroken: Localized(en: "Purchases are not available on this device", zh: "此设备不支持内购")
        case .restoring: Localized(en: "Restoring purchases…", zh: "正在恢复购买…")
        case .restored: Localized(en: "Purchases restored ({n})", zh: "已恢复购买({n})")
        case .nothingToRestore: Localized(en: "Nothing to restore", zh: "没有可恢复的购买")
        case .restoreFailed: Localized(en: "Restore failed, please try again later", zh: "恢复购买失败,请稍后重试")
        case .restoreInBackground: Localized(en: "Esc: go on restoring in the background", zh: "Esc:在后台继续恢复")
        case .appleIdChanged: Localized(en: "Apple ID changed: this payment waits for its Apple ID",
                                        zh: "Apple ID 已更换:此付款等待原 Apple ID")
        case .appleIdBadge: Localized(en: "Apple ID", zh: "Apple ID")
        case .alreadySubscribed: Localized(en: "You're currently subscribed to this.", zh: "你目前已订阅此项目。")
        case .familyRevoked: Localized(en: "Family Sharing ended: no longer shared with you", zh: "家人共享已结束:不再与你共享")
        case .offerRefused: Localized(en: "The offer could not be applied", zh: "无法使用此优惠")
        case .offerNotSigned: Localized(en: "The app's server did not sign the offer", zh: "应用服务器未签名此优惠")
        case .alreadyPending: Localized(en: "An earlier purchase of it is not finished yet", zh: "它的上一笔购买尚未结束")
        case .offerInvalidSignature: Localized(en: "signature not valid, used before or over 24 h old", zh: "签名无效、已用过或超过 24 小时")
        case .offerInvalidIdentifier: Localized(en: "no such offer for this product", zh: "此商品没有该优惠")
        case .offerInvalidPrice: Localized(en: "the offer has no valid price", zh: "该优惠没有有效价格")
        case .offerIneligible: Localized(en: "only for current or past subscribers", zh: "仅限当前或曾经的订阅者")
        case .offerChosen: Localized(en: "Offer", zh: "优惠")
        case .winBackOffer: Localized(en: "Welcome back", zh: "回归优惠")
        case .monthlyPlan: Localized(en: "12 months", zh: "12个月")
        case .winBackIneligible: Localized(en: "the win-back offer is no longer yours (its eligibility); buy at the regular price",
                                           zh: "回归优惠已不再适用(资格条件);请按原价购买")
        case .offerFree: Localized(en: "Free", zh: "免费")
        case .offerCodePrompt: Localized(en: "Offer code:", zh: "优惠码:")
        case .offerCodeHint: Localized(en: "Enter redeem · Esc cancel", zh: "Enter 兑换 · Esc 取消")
        case .offerCodeInvalid: Localized(en: "This code is not valid", zh: "此优惠码无效")
        case .offerCodeUsed: Localized(en: "This offer was redeemed already", zh: "此优惠已兑换过")
        case .oneTimeCodeUsed: Localized(en: "This code has already been redeemed", zh: "此优惠码已被兑换")
        case .codeRedeemed: Localized(en: "Offer code redeemed", zh: "优惠码已兑换")
        case .codeRedeemedNextRenewal: Localized(en: "It applies from the next renewal", zh: "将从下次续期起生效")
        case .offerNextRenewal: Localized(en: "The offer applies from the next renewal", zh: "优惠将从下次续期起生效")
        case .nothingChargedNow: Localized(en: "Nothing is charged now", zh: "现在不扣款")
        case .planOfAnotherAccount: Localized(en: "Another account holds this subscription", zh: "此订阅由另一个账号持有")
        case .movedByResubscription: Localized(en: "bought again after it lapsed", zh: "失效后重新购买")
        case .offerCodeLimitReached: Localized(en: "This code is no longer available", zh: "此优惠码已不可用")
        case .offerCodeIneligible: Localized(en: "You're not eligible for this offer", zh: "你不符合此优惠的条件")
        case .alreadyOwned: Localized(en: "You've already purchased this. It will be restored for free.", zh: "你已购买过此项目,将免费为你恢复。")
        case .otherAccount: Localized(en: "This purchase belongs to another account", zh: "此购买属于另一个账号")
        case .unclaimed: Localized(en: "? unclaimed, for support", zh: "? 未认领,待客服")
        case .continuesInBackground: Localized(en: "Payment went through: it continues in the background", zh: "付款已完成:将在后台继续处理")
        case .appTitle: Localized(en: "iapsim · mock App Store", zh: "iapsim · 模拟 App Store")
        case .loginPrompt: Localized(en: "Log in as:", zh: "登录用户名:")
        case .loginHint: Localized(en: "Type a name and press Enter", zh: "输入用户名后按 Enter")
        case .loginRule: Localized(en: "1 to 24 letters, digits or punctuation", zh: "用户名为 1 到 24 个字母、数字或标点")
        case .productsFailed: Localized(en: "The App Store did not answer the product request", zh: "App Store 没有响应商品请求")
        case .productsAskAgain: Localized(en: "f (back to the foreground) asks again", zh: "按 f(回到前台)重新获取")
        case .buyByIdentifier: Localized(en: "Buy by product identifier:", zh: "按商品 ID 购买:")
        case .user: Localized(en: "user", zh: "用户")
        case .pending: Localized(en: "pending", zh: "待处理")
        case .balance: Localized(en: "Balance", zh: "余额")
        case .balanceUnknown: Localized(en: "Balance unknown (backend down)", zh: "余额未知(后端不可达)")
        case .balanceNotRead: Localized(en: "Balance …", zh: "余额 …")
        case .coins: Localized(en: "coins", zh: "金币")
        case .owned: Localized(en: "Owned", zh: "已拥有")
        case .familyShared: Localized(en: "Family", zh: "家人共享")
        case .products: Localized(en: "Products", zh: "商品")
        case .stay: Localized(en: "Stay", zh: "留下")
        case .logoutAnyway: Localized(en: "Log out anyway", zh: "仍要退出")
        case .quitInFlight: Localized(en: "A purchase is in flight. Quit anyway?", zh: "有购买正在进行,仍要退出吗?")
        case .quitNothingInFlight: Localized(en: "Nothing is in flight any more. Quit now?", zh: "已没有进行中的购买,现在退出吗?")
        case .yesQuit: Localized(en: "y quit", zh: "y 退出")
        case .noStay: Localized(en: "Esc stay", zh: "Esc 留下")
        case .compensateAsk: Localized(en: "Compensate order {order} (tx {tx}) by hand?", zh: "人工补单 {order}(交易 {tx})?")
        case .yesCompensate: Localized(en: "y compensate", zh: "y 补单")
        case .retryingApple: Localized(en: "retrying Apple", zh: "重试 Apple")
        case .clientAlarms: Localized(en: "client alarm", zh: "客户端警报")
        case .replayed: Localized(en: "replayed by", zh: "重放者")
        case .appleIdOrders: Localized(en: "its Apple ID's orders", zh: "该 Apple ID 的订单")
        case .policyTransfer: Localized(en: "transfer", zh: "转移")
        case .policyShare: Localized(en: "share", zh: "共享")
        case .policyKeep: Localized(en: "keep", zh: "保留")
        case .helpTitle: Localized(en: "Keys", zh: "按键")
        case .helpClose: Localized(en: "Esc or ? closes", zh: "Esc 或 ? 关闭")
        case .helpTurn: Localized(en: "PgDn next page, PgUp previous", zh: "PgDn 下一页,PgUp 上一页")
        case .retryCount: Localized(en: "retry", zh: "重试")
        case .nextRetry: Localized(en: "next in", zh: "下次")
        case .retryOnTrigger: Localized(en: "f (back to the foreground) retries", zh: "按 f(回到前台)重试")
        case .retryOnTriggerShort: Localized(en: "f retries", zh: "按 f 重试")
        case .awaitingAnswer: Localized(en: "awaits you", zh: "等你回答")
        case .chargedForAnotherAccount: Localized(en: "Apple ID charged, credited to that account", zh: "已向 Apple ID 扣款,记给了那个账号")
        case .freePeriodForAnotherAccount: Localized(en: "Free period on the Apple ID, credited to that account", zh: "Apple ID 开始免费期,记给了那个账号")
        case .codeRedeemedForAnotherAccount: Localized(en: "Code redeemed on the Apple ID, credited to that account", zh: "优惠码已在 Apple ID 上兑换,记给了那个账号")
        case .inBackground: Localized(en: "Esc: keep it pending in the background", zh: "Esc:转入后台继续处理")
        case .tooSmall: Localized(en: "Terminal too small: need at least", zh: "终端太小,至少需要")
        case .tooSmallQuit: Localized(en: "Enlarge the window; q quits.", zh: "请放大窗口;按 q 退出。")
        case .consumable: Localized(en: "Consumable", zh: "消耗型")
        case .nonConsumable: Localized(en: "Non-consumable", zh: "非消耗型")
        case .subscription: Localized(en: "Subscription", zh: "订阅")
        case .nonRenewing: Localized(en: "Non-renewing", zh: "非续期订阅")
        case .orderOf: Localized(en: "Order", zh: "订单")
        case .serialPolicy: Localized(en: "Serial purchases: one order at a time", zh: "串行购买:一次只处理一笔订单")
        case .alarm: Localized(en: "ALARM", zh: "警报")
        case .backendDownBadge: Localized(en: "backend down", zh: "后端不可达")
        case .servingBadge: Localized(en: "serving", zh: "服务中")
        case .storeKitBadge: Localized("StoreKit")
        case .serverAPIBadge: Localized(en: "backend: Server API", zh: "后端:Server API")
        case .faultPanel: Localized(en: "Faults", zh: "故障")
        case .faultPanelHint: Localized(en: "Enter arm/disarm · o one-shot · ←/→ value · Esc close · --fault NAME=VALUE",
                                        zh: "Enter 启用/关闭 · o 只触发一次 · ←/→ 取值 · Esc 关闭 · --fault 名称=值")
        case .scenariosTitle: Localized(en: "Scenarios", zh: "场景")
        case .scenariosHint: Localized(en: "Enter sets it up on its own data and hands it to you · Esc close",
                                       zh: "Enter 在独立数据上布置好场景后交给你操作 · Esc 关闭")
        case .noScenarios: Localized(en: "No scenarios are shipped beside this binary.", zh: "此程序旁没有附带场景。")
        case .inspectorClient: Localized(en: "Client", zh: "客户端")
        case .inspectorBackend: Localized(en: "Backend", zh: "后端")
        case .explainSees: Localized(en: "What the user sees", zh: "用户看到")
        case .explainUnderneath: Localized(en: "What is happening underneath", zh: "背后发生了什么")
        case .explainStoreKit2: Localized(en: "In an app written against StoreKit 2", zh: "基于 StoreKit 2 的应用中")
        case .explainSupport: Localized(en: "What support should do", zh: "客服应当怎么做")
        case .explainReach: Localized(en: "How to reach it", zh: "如何重现")
        case .explainClose: Localized(en: "Esc or e closes · E every state", zh: "Esc 或 e 关闭 · E 所有状态")
        case .stateCatalogTitle: Localized(en: "States explained", zh: "状态说明")
        case .stateCatalogClose: Localized(en: "↑/↓ browse · e explain it alone · Esc closes", zh: "↑/↓ 浏览 · e 单独解释 · Esc 关闭")
        case .stateCatalogCut: Localized(en: "cut short: e shows it whole · ↑/↓ browse · Esc closes", zh: "未显示完:e 显示全文 · ↑/↓ 浏览 · Esc 关闭")
        case .inspectorTimeline: Localized(en: "Timeline: what happened, and what it led to", zh: "时间线:发生了什么,引出了什么")
        case .creditsKeptAt: Localized(en: "credits kept by your server:", zh: "入账记在你的服务器上:")
        case .inspectorNotifications: Localized(en: "Server notifications: what Apple POSTed (--notify, --server-api)", zh: "服务器通知:Apple 发出的内容(--notify、--server-api)")
        case .escCancel: Localized(en: "Esc cancel", zh: "Esc 取消")
        case .escClose: Localized(en: "Esc close", zh: "Esc 关闭")
        case .subActive: Localized(en: "Active · renews {date}", zh: "生效中 · {date} 续期")
        case .subTrial: Localized(en: "Trial until {date}", zh: "试用至 {date}")
        case .subFreeOffer: Localized(en: "Free until {date}", zh: "免费至 {date}")
        case .subCancelled: Localized(en: "Cancelled · ends {date}", zh: "已取消 · {date} 到期")
        case .subBilling: Localized(en: "Billing retry · grace until {date}", zh: "扣款重试中 · 宽限期至 {date}")
        case .subBillingOff: Localized(en: "Billing retry · service off", zh: "扣款重试中 · 服务已暂停")
        case .subExpired: Localized(en: "Expired", zh: "已过期")
        case .subRevoked: Localized(en: "Refunded · ended {date}", zh: "已退款 · {date} 终止")
        case .planChanged: Localized(en: "Your plan changes at the next renewal", zh: "方案将在下次续期时变更")
        case .subscriptionsTitle: Localized(en: "Subscriptions", zh: "订阅")
        case .noSubscriptions: Localized(en: "No subscriptions for this account.", zh: "此账户没有订阅。")
        case .subGroup: Localized(en: "Group {group} · level {level} of {levels} · {price}", zh: "订阅组 {group} · 级别 {level}/{levels} · {price}")
        case .subNext: Localized(en: "Next renewal: {product}, {price}", zh: "下次续期:{product},{price}")
        case .subOfferThen: Localized(en: "{offer}, then {price}", zh: "{offer},之后 {price}")
        case .subDowngrade: Localized(en: " (a downgrade)", zh: "(降级)")
        case .subCrossgrade: Localized(en: " (a crossgrade)", zh: "(同级切换)")
        case .subAutoRenewOff: Localized(en: "Auto-renew is off: nothing more will be charged.", zh: "自动续期已关闭:不会再扣款。")
        case .subAutoRenewOffShort: Localized(en: " · auto-renew off", zh: " · 自动续期已关闭")
        case .subRetryStopped: Localized(en: "Auto-renew is off: Apple will not retry the charge, and the subscription ends at its next attempt.",
                                         zh: "自动续期已关闭:Apple 不再重试扣款,订阅将在下次尝试时结束。")
        case .subCommitmentOff: Localized(en: "Auto-renew is off: the commitment's months are still billed, until it ends on {date}.",
                                          zh: "自动续期已关闭:承诺期内的月份仍会扣款,直到 {date} 结束。")
        case .subRetrying: Localized(en: "Apple retries the charge daily; the service stays on until the grace period ends.",
                                     zh: "Apple 每天重试扣款;宽限期结束前服务不中断。")
        case .subRetryingOff: Localized(en: "The grace period is over: the service is off while Apple retries the charge daily, until {date}.",
                                        zh: "宽限期已结束:服务暂停,Apple 每天重试扣款,直到 {date}。")
        case .subOver: Localized(en: "Ended: buying it again from the product list resubscribes.", zh: "已结束:在商品列表中再次购买即可重新订阅。")
        case .subHintCancel: Localized(en: "Enter cancel auto-renew · Esc close", zh: "Enter 取消自动续期 · Esc 关闭")
        case .subHintResume: Localized(en: "Enter resume auto-renew · Esc close", zh: "Enter 恢复自动续期 · Esc 关闭")
        case .subPriceIncrease: Localized(en: "Price increase: p to agree; without it, it ends at the renewal.",
                                          zh: "价格上涨:按 p 同意;不同意则在续期时结束。")
        case .subPriceAgreed: Localized(en: "You agreed to the new price from the next renewal.", zh: "你已同意自下次续期起的新价格。")
        }
    }

    /// A restore policy by `--restore-policy`'s word; nil for a word it does not know.
    static func restorePolicy(named word: String) -> Text? {
        switch word {
        case "transfer": .policyTransfer
        case "share": .policyShare
        case "keep": .policyKeep
        case "resubscribed": .movedByResubscription
        default: nil
        }
    }

    public func callAsFunction(_ lang: Language) -> String {
        localized[lang]
    }
}

extension Product.Kind {
    public var label: Text {
        switch self {
        case .consumable: .consumable
        case .nonConsumable: .nonConsumable
        case .subscription: .subscription
        case .nonRenewing: .nonRenewing
        }
    }
}

extension HUD.Kind {
    public var text: Text {
        switch self {
        case .purchasing: .purchasing
        case .alreadyOwned: .alreadyOwned
        case .restoring: .restoring
        case .restored: .restored
        case .nothingToRestore: .nothingToRestore
        case .restoreFailed: .restoreFailed
        case .backgrounded: .continuesInBackground
        case .confirming: .confirming
        case .success: .success
        case .failed: .failed
        case .cancelled: .cancelled
        case .deferred: .deferred
        case .disabled: .disabled
        case .verifyFailed: .verifyFailed
        case .jailbroken: .jailbroken
        case .planChanged: .planChanged
        case .appleIdChanged: .appleIdChanged
        case .otherAccount: .otherAccount
        case .alreadySubscribed: .alreadySubscribed
        case .familyRevoked: .familyRevoked
        case .offerRefused: .offerRefused
        case .codeRedeemed: .codeRedeemed
        }
    }
}
