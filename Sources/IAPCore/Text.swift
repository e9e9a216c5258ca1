/// Every sentence the app shows, in both languages. SPEC's canonical strings keep their exact wording.
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
    /// `{n}`: how many purchases came back.
    case restored
    // the app's own
    case continuesInBackground, unclaimed
    case appTitle, loginPrompt, loginHint, user, pending, balance, balanceUnknown, coins, owned, products
    case stay, logoutAnyway, quitInFlight, yesQuit, noStay
    case helpTitle, helpClose, retryCount, nextRetry, inBackground
    case tooSmall, tooSmallQuit, consumable, nonConsumable, subscription, nonRenewing
    case orderOf, serialPolicy, alarm, backendDownBadge
    case faultPanel, faultPanelHint, scenariosTitle, scenariosHint, noScenarios
    case inspectorStore, inspectorClient, inspectorBackend, inspectorTimeline
    case explainSees, explainUnderneath, explainSupport, explainReach, explainClose, stateCatalogTitle, stateCatalogClose

    public func callAsFunction(_ lang: Language) -> String {
        let pair = Self.table[self]!
        return lang == .en ? pair.0 : pair.1
    }

    private static let table: [Text: (String, String)] = [
        .loading: ("Loading products…", "正在获取商品信息…"),
        .purchasing: ("Purchasing…", "正在购买…"),
        .confirming: ("Confirming payment…", "正在确认支付…"),
        .success: ("Purchase complete", "购买成功"),
        .failed: ("Purchase failed", "交易失败"),
        .cancelled: ("Purchase cancelled", "已取消购买"),
        .deferred: ("Waiting for approval", "等待批准"),
        .disabled: ("Please enable In-App Purchases", "请打开 Apple 支付"),
        .noProducts: ("Network hiccup, please try again later", "网络开小差了,请稍后重试"),
        .unfinished: ("Unfinished order found", "发现未完成订单"),
        .continueAction: ("Continue", "继续处理"),
        .later: ("Later", "稍后"),
        .logoutPending: ("Orders still pending — log out anyway?", "有订单尚未完成,仍要退出登录吗?"),
        .verifyFailed: ("Verification failed, please contact support", "验证失败,请联系客服"),
        .jailbroken: ("Purchases are not available on this device", "此设备不支持内购"),
        .restored: ("Purchases restored ({n})", "已恢复购买({n})"),
        .alreadyOwned: ("You've already purchased this. It will be restored for free.", "你已购买过此项目,将免费为你恢复。"),
        .unclaimed: ("? unclaimed, for support", "? 未认领,待客服"),
        .continuesInBackground: ("Payment went through: it continues in the background", "付款已完成:将在后台继续处理"),
        .appTitle: ("iapsim · mock App Store", "iapsim · 模拟 App Store"),
        .loginPrompt: ("Log in as:", "登录用户名:"),
        .loginHint: ("Type a name and press Enter", "输入用户名后按 Enter"),
        .user: ("user", "用户"),
        .pending: ("pending", "待处理"),
        .balance: ("Balance", "余额"),
        .balanceUnknown: ("Balance unknown (backend down)", "余额未知(后端不可达)"),
        .coins: ("coins", "金币"),
        .owned: ("Owned", "已拥有"),
        .products: ("Products", "商品"),
        .stay: ("Stay", "留下"),
        .logoutAnyway: ("Log out anyway", "仍要退出"),
        .quitInFlight: ("A purchase is in flight. Quit anyway?", "有购买正在进行,仍要退出吗?"),
        .yesQuit: ("y quit", "y 退出"),
        .noStay: ("Esc stay", "Esc 留下"),
        .helpTitle: ("Keys", "按键"),
        .helpClose: ("Esc or ? closes", "Esc 或 ? 关闭"),
        .retryCount: ("retry", "重试"),
        .nextRetry: ("next in", "下次"),
        .inBackground: ("Esc: keep it pending in the background", "Esc:转入后台继续处理"),
        .tooSmall: ("Terminal too small: need at least", "终端太小,至少需要"),
        .tooSmallQuit: ("Enlarge the window; q quits.", "请放大窗口;按 q 退出。"),
        .consumable: ("Consumable", "消耗型"),
        .nonConsumable: ("Non-consumable", "非消耗型"),
        .subscription: ("Subscription", "订阅"),
        .nonRenewing: ("Non-renewing", "非续期订阅"),
        .orderOf: ("Order", "订单"),
        .serialPolicy: ("Serial purchases: one order at a time", "串行购买:一次只处理一笔订单"),
        .alarm: ("ALARM", "警报"),
        .backendDownBadge: ("backend down", "后端不可达"),
        .faultPanel: ("Faults", "故障"),
        .faultPanelHint: ("Enter arm/disarm (sticky) · o one-shot · Esc close · values: --fault NAME=VALUE",
                          "Enter 启用/关闭(持续)· o 只触发一次 · Esc 关闭 · 取值:--fault 名称=值"),
        .scenariosTitle: ("Scenarios", "场景"),
        .scenariosHint: ("Enter sets it up on its own data and hands it to you · Esc close",
                         "Enter 在独立数据上布置好场景后交给你操作 · Esc 关闭"),
        .noScenarios: ("No scenarios are shipped beside this binary.", "此程序旁没有附带场景。"),
        .inspectorStore: ("Store queue", "商店队列"),
        .inspectorClient: ("Client", "客户端"),
        .inspectorBackend: ("Backend", "后端"),
        .explainSees: ("What the user sees", "用户看到"),
        .explainUnderneath: ("What is happening underneath", "背后发生了什么"),
        .explainSupport: ("What support should do", "客服应当怎么做"),
        .explainReach: ("How to reach it", "如何重现"),
        .explainClose: ("Esc or e closes · E every state", "Esc 或 e 关闭 · E 所有状态"),
        .stateCatalogTitle: ("States explained", "状态说明"),
        .stateCatalogClose: ("↑/↓ browse · e explain it alone · Esc closes", "↑/↓ 浏览 · e 单独解释 · Esc 关闭"),
        .inspectorTimeline: ("Timeline: what happened, and what it led to", "时间线:发生了什么,引出了什么"),
    ]
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
