import IAPCore

/// What differs for an app written against StoreKit 2 (issue 28, item 6), per state where something does: the same
/// screen, reached through StoreKit 2's calls and named by them, for support staff who answer for apps of both kinds.
extension StateCatalog {
    public static let storeKit2: [String: Localized] = [
        "products": Localized(
            en: "The app asked Product.products(for:) with its product identifiers; a subscription's status and renewal info come from Product.SubscriptionInfo.status.",
            zh: "应用用商品 ID 调用 Product.products(for:);订阅的状态与续期信息来自 Product.SubscriptionInfo.status。"),
        "hud-purchasing": Localized(
            en: "The app called product.purchase(options:) with the app user's appAccountToken, a UUID its server keeps per app user, instead of an SKPayment whose applicationUsername names the order. The call returns when the sheet closes: success, pending or userCancelled.",
            zh: "应用调用 product.purchase(options:),带上服务器为每个应用用户保存的 appAccountToken(UUID),而不是用 applicationUsername 标明订单的 SKPayment。付款表单关闭时调用返回:success、pending 或 userCancelled。"),
        "hud-confirming": Localized(
            en: "purchase(options:) returned success with a VerificationResult: StoreKit checked the transaction's signature (JWS) on the device. The app sends the signed transaction, not the app receipt, to its server, which checks the signature, the bundle id and the environment before it credits.",
            zh: "purchase(options:) 返回 success 和 VerificationResult:StoreKit 已在设备上校验交易签名(JWS)。应用把签名交易(而非 App 收据)发给服务器,服务器校验签名、bundle id 和环境后才入账。"),
        "hud-confirming-retry": Localized(
            en: "The same back-off, and one more reason: the server found the signed transaction unverified (its signature, another app's bundle id, another environment; fault unverified-transaction). It credits nothing and decides nothing; the client asks StoreKit for the transaction again at each try and never finishes it for this. An app on the App Store Server API sees no \"not in the receipt yet\" and no 21005 from verifyReceipt, which Apple deprecated.",
            zh: "同样按退避重试,另多一种原因:服务器发现签名交易未通过校验(签名、别的应用的 bundle id、别的环境;故障 unverified-transaction)。服务器不入账也不下结论;客户端每次重试都向 StoreKit 重新索取交易,绝不因此结束它。使用 App Store Server API 的应用不会遇到“收据中尚无此交易”,也没有已被 Apple 弃用的 verifyReceipt 的 21005。"),
        "hud-success": Localized(
            en: "The client calls transaction.finish() after the server granted it, as finishTransaction in StoreKit 1; an unfinished transaction comes back through Transaction.updates and Transaction.unfinished at the next launch.",
            zh: "服务器发放后客户端调用 transaction.finish(),相当于 StoreKit 1 的 finishTransaction;未结束的交易会在下次启动时经 Transaction.updates 和 Transaction.unfinished 回来。"),
        "hud-restoring": Localized(
            en: "Restore is AppStore.sync(): it asks for the Apple ID's password and syncs its transactions; what it owns is then read from Transaction.currentEntitlements. There are no `restored` transactions and none to finish: Apple's guide says apps rarely need sync, since transactions reach the device on their own.",
            zh: "恢复购买是 AppStore.sync():它要求输入 Apple ID 密码并同步交易;拥有的内容随后从 Transaction.currentEntitlements 读取。没有 `restored` 交易,也无须结束:Apple 指南说应用很少需要 sync,交易会自动同步到设备。"),
        "hud-restored": Localized(
            en: "After AppStore.sync() the app reads Transaction.currentEntitlements: the original transactions themselves, each still carrying the appAccountToken of the app user who bought it.",
            zh: "AppStore.sync() 之后应用读取 Transaction.currentEntitlements:得到的是原始交易本身,每笔仍带着购买者的 appAccountToken。"),
        "hud-nothing-to-restore": Localized(
            en: "Transaction.currentEntitlements is empty after AppStore.sync(); consumables are never listed there.",
            zh: "AppStore.sync() 之后 Transaction.currentEntitlements 为空;消耗型商品从不在其中。"),
        "hud-restore-failed": Localized(
            en: "AppStore.sync() threw (StoreKitError.networkError, or userCancelled at the password prompt).",
            zh: "AppStore.sync() 抛出错误(StoreKitError.networkError,或在密码框点了取消 userCancelled)。"),
        "hud-failed": Localized(
            en: "purchase(options:) threw a Product.PurchaseError or a StoreKitError: no transaction exists, so there is nothing to save or finish.",
            zh: "purchase(options:) 抛出 Product.PurchaseError 或 StoreKitError:没有交易产生,无须保存或结束。"),
        "hud-cancelled": Localized(
            en: "purchase(options:) returned .userCancelled: a result, not a failed transaction; nothing to finish.",
            zh: "purchase(options:) 返回 .userCancelled:这是一个结果,不是失败的交易;无须结束。"),
        "hud-deferred": Localized(
            en: "purchase(options:) returned .pending. An approved purchase arrives later through Transaction.updates (a listener the app starts at launch, so also after a relaunch); a declined one produces no transaction at all.",
            zh: "purchase(options:) 返回 .pending。获批的购买稍后经 Transaction.updates 到达(应用启动时就开始监听,重启后也能收到);被拒的购买不会产生任何交易。"),
        "hud-offer-refused": Localized(
            en: "The server signs a JWS for purchase(options: [.promotionalOffer(…)]), and a refusal is Product.PurchaseError's invalidOfferSignature, invalidOfferIdentifier, invalidOfferPrice or ineligibleForOffer.",
            zh: "服务器为 purchase(options: [.promotionalOffer(…)]) 签一个 JWS,被拒时是 Product.PurchaseError 的 invalidOfferSignature、invalidOfferIdentifier、invalidOfferPrice 或 ineligibleForOffer。"),
        "hud-code-redeemed": Localized(
            en: "The sheet is AppStore.presentOfferCodeRedeemSheet(in:); the transaction it makes carries no appAccountToken, since no purchase of the app made it, and reaches the app through Transaction.updates.",
            zh: "兑换表单是 AppStore.presentOfferCodeRedeemSheet(in:);它产生的交易不带 appAccountToken(不是应用内购买产生的),经 Transaction.updates 到达应用。"),
        "hud-already-owned": Localized(
            en: "A StoreKit 2 app checks Transaction.currentEntitlements before it offers to buy what is owned; the App Store's sheet says the same either way, and charges nothing.",
            zh: "StoreKit 2 应用在提供购买已拥有的商品前先查 Transaction.currentEntitlements;无论哪种,App Store 的表单都这样提示,且不扣款。"),
        "hud-other-account": Localized(
            en: "The transaction's appAccountToken names the app user who bought it: the server maps the token to that user, whoever is logged in now.",
            zh: "交易的 appAccountToken 指明购买它的应用用户:服务器按令牌找到该用户,无论现在谁登录。"),
        "prompt-unfinished": Localized(
            en: "At launch the app reads Transaction.unfinished (and its Transaction.updates listener is handed the same, once): what was paid and never finished, with its appAccountToken.",
            zh: "启动时应用读取 Transaction.unfinished(Transaction.updates 监听器也会收到一次):已付款但从未结束的交易,带着其 appAccountToken。"),
        "unattributed": Localized(
            en: "The transaction carries no appAccountToken: made outside the app (an offer code, the App Store, a family member) or paid while the server could not give one. The same evidence rules decide, and support assigns what they cannot.",
            zh: "交易不带 appAccountToken:在应用外产生(优惠码、App Store、家庭成员),或付款时服务器给不出令牌。同样按证据规则判断,判断不了的由客服分配。"),
        "hud-verify-failed": Localized(
            en: "A signed transaction that fails the server's check (not Apple's chain, another app, another environment) does not end here: it is asked for again and retried (see Confirming, retrying), since a genuine payment's may pass the next time. This state is a verdict for good on a transaction that passed the check, and the client finishes it without a credit.",
            zh: "未通过服务器校验的签名交易(证书链不是 Apple 的、别的应用、别的环境)不会停在这里:会重新索取并重试(见“确认中,重试”),因为真实付款的交易下次可能通过。本状态是对已通过校验的交易的最终结论,客户端结束交易,不入账。"),
        "hud-jailbroken": Localized(
            en: "A forged transaction fails VerificationResult on the device (.unverified) and the server's check of the JWS: an app that credits only .verified transactions its server accepted is not fooled.",
            zh: "伪造的交易在设备上校验失败(.unverified),服务器校验 JWS 也不通过:只为服务器认可的 .verified 交易入账的应用不会被骗。"),
        "family-shared": Localized(
            en: "The transaction's ownershipType is .familyShared; it is in Transaction.currentEntitlements without AppStore.sync().",
            zh: "交易的 ownershipType 为 .familyShared;无须 AppStore.sync() 就在 Transaction.currentEntitlements 中。"),
        "hud-family-revoked": Localized(
            en: "Transaction.updates delivers the transaction with a revocationDate, and it leaves Transaction.currentEntitlements.",
            zh: "Transaction.updates 送来带 revocationDate 的交易,它从 Transaction.currentEntitlements 中消失。"),
        "sub-trial": Localized(
            en: "Product.SubscriptionInfo.RenewalState is .subscribed; the transaction's offer (offerType .introductory, paymentMode .freeTrial) says it is a trial. Eligibility is product.subscription.isEligibleForIntroOffer, or the server's signed word on it.",
            zh: "Product.SubscriptionInfo.RenewalState 为 .subscribed;交易的 offer(offerType .introductory,paymentMode .freeTrial)表明是试用。资格看 product.subscription.isEligibleForIntroOffer,或服务器对其的签名意见。"),
        "sub-active": Localized(
            en: "Product.SubscriptionInfo.RenewalState is .subscribed, the renewal info's willAutoRenew true; Transaction.currentEntitlements holds its latest transaction.",
            zh: "Product.SubscriptionInfo.RenewalState 为 .subscribed,续期信息的 willAutoRenew 为 true;Transaction.currentEntitlements 中有其最新交易。"),
        "sub-cancelled": Localized(
            en: "RenewalState is still .subscribed; the renewal info's willAutoRenew is false and its expirationReason says why once it ends.",
            zh: "RenewalState 仍为 .subscribed;续期信息的 willAutoRenew 为 false,结束后 expirationReason 说明原因。"),
        "sub-grace-period": Localized(
            en: "RenewalState is .inGracePeriod, the renewal info's gracePeriodExpirationDate its end.",
            zh: "RenewalState 为 .inGracePeriod,续期信息的 gracePeriodExpirationDate 为其结束时间。"),
        "sub-billing-retry": Localized(
            en: "RenewalState is .inBillingRetryPeriod, the renewal info's isInBillingRetry true.",
            zh: "RenewalState 为 .inBillingRetryPeriod,续期信息的 isInBillingRetry 为 true。"),
        "sub-expired": Localized(
            en: "RenewalState is .expired, the renewal info's expirationReason why; a win-back offer the Apple ID may take is in its eligibleWinBackOfferIDs.",
            zh: "RenewalState 为 .expired,续期信息的 expirationReason 说明原因;该 Apple ID 可用的赢回优惠在 eligibleWinBackOfferIDs 中。"),
        "sub-revoked": Localized(
            en: "RenewalState is .revoked; the transaction carries revocationDate and revocationReason, and Transaction.updates delivers it so.",
            zh: "RenewalState 为 .revoked;交易带 revocationDate 和 revocationReason,Transaction.updates 会这样送来。"),
        "inspector": Localized(
            en: "The timeline and the store column speak StoreKit 2: purchase(options:), Transaction.updates, finish(), AppStore.sync(), the unfinished transactions with their appAccountToken.",
            zh: "时间线和商店栏使用 StoreKit 2 的名称:purchase(options:)、Transaction.updates、finish()、AppStore.sync(),以及带 appAccountToken 的未完成交易。"),
    ]
}
