/// One user-visible state, explained for support staff: what the user sees, what is happening underneath,
/// what support should do, and how to reach it on purpose.
public struct StateExplanation: Sendable {
    public let id: String
    public let title: Localized
    public let sees: Localized
    public let underneath: Localized
    public let support: Localized
    /// A scenario (`iapsim scenarios`), a flag or keys that bring the state on screen.
    public let reach: String
}

/// Every user-visible state the app has. `AppState.visibleStateId` names the one on screen; a test fails
/// when a state exists without an entry here.
public enum StateCatalog {
    public static func entry(_ id: String) -> StateExplanation? {
        entries.first { $0.id == id }
    }

    private static func e(_ id: String, _ title: (String, String), sees: (String, String), underneath: (String, String),
                          support: (String, String), reach: String) -> StateExplanation {
        StateExplanation(id: id, title: Localized(en: title.0, zh: title.1), sees: Localized(en: sees.0, zh: sees.1),
                         underneath: Localized(en: underneath.0, zh: underneath.1), support: Localized(en: support.0, zh: support.1),
                         reach: reach)
    }

    public static let entries: [StateExplanation] = [
        e("login", ("Login", "登录"),
          sees: ("A prompt for a user name.", "输入用户名的登录框。"),
          underneath: ("Nobody is logged in. Paid transactions the store re-delivers now wait, unclaimed, for their buyer.",
                       "当前无人登录。商店重新送达的已付款交易会暂存,等待买家登录后认领。"),
          support: ("Nothing to do; after logging in, the user's own unfinished orders are offered again.",
                    "无需处理;用户登录后会再次提示其未完成订单。"),
          reach: "scripts/run (first launch), or L on the product list"),
        e("products", ("Product list", "商品列表"),
          sees: ("The products with prices, the balance, the user and 'pending 0'.", "商品与价格、余额、用户名,以及“待处理 0”。"),
          underneath: ("The store answered the product request; no order of this user is waiting for verification.",
                       "商店已返回商品信息;该用户没有等待验证的订单。"),
          support: ("Nothing to do.", "无需处理。"),
          reach: "scripts/run --user alice"),
        e("products-pending", ("Orders pending", "有待处理订单"),
          sees: ("The product list with 'pending N' (N > 0) in the title bar.", "商品列表,标题栏显示“待处理 N”(N 大于 0)。"),
          underneath: ("N paid orders are saved on the device and not yet confirmed by the backend; the client retries them with back-off and on every trigger (login, purchase, network back, foreground).",
                       "有 N 笔已付款订单保存在设备上,尚未被后端确认;客户端按退避策略重试,并在登录、购买、网络恢复、回到前台时立即重试。"),
          support: ("Reassure the user: the money is not lost. Ask them to stay logged in with the network on; if it persists, look the transaction up on the backend.",
                    "安抚用户:款项不会丢失。请用户保持登录并联网;若持续存在,在后端查询该交易。"),
          reach: "scenario backend-down-retries (press Esc on the HUD)"),
        e("loading", ("Loading products", "正在获取商品"),
          sees: ("“Loading products…”", "“正在获取商品信息…”"),
          underneath: ("The product request to the store has not answered yet.", "向商店请求商品信息,尚未返回。"),
          support: ("Wait; if it lasts, check the network.", "稍候;若持续,请检查网络。"),
          reach: "--fault products-slow=30"),
        e("no-products", ("No products", "没有商品"),
          sees: ("“Network hiccup, please try again later”", "“网络开小差了,请稍后重试”"),
          underneath: ("The product request failed or came back empty: nothing can be bought, nothing was charged.",
                       "商品请求失败或返回为空:无法购买,也没有扣款。"),
          support: ("Ask the user to retry later on a better network; nothing was charged.", "请用户稍后在良好网络下重试;没有扣款。"),
          reach: "--fault products-fail or --fault products-empty"),
        e("hud-purchasing", ("Purchasing", "正在购买"),
          sees: ("“Purchasing…” over the product list.", "商品列表上方显示“正在购买…”。"),
          underneath: ("The backend made an order, the buyer was noted on the device, and Apple's payment sheet is open; nothing is charged until it comes back “purchased”.",
                       "后端已创建订单,设备已记下买家,Apple 支付界面已打开;返回“已购买”之前不会扣款。"),
          support: ("Wait. If the app is killed now, the payment still completes and is recovered at the next launch.",
                    "稍候。若此时应用被杀,支付仍会完成,并在下次启动时恢复。"),
          reach: "scripts/run --user alice, Enter"),
        e("hud-already-owned", ("Already purchased", "已购买过"),
          sees: ("“You've already purchased this. It will be restored for free.” on the payment sheet.",
                 "付款页显示“你已购买过此项目,将免费为你恢复。”"),
          underneath: ("The store account already owns this non-consumable (or an active subscription of its group), so Apple does not charge again: a `restored` transaction carrying the original transaction id follows, and the backend credits nothing new.",
                       "该商店账户已拥有此非消耗型项目(或同组内有效的订阅),苹果不会再次扣款:随后到来一笔带原始交易号的“restored”交易,后端不会重复入账。"),
          support: ("Reassure the user: nothing was charged. If the item does not unlock, have them use Restore Purchases.",
                    "安抚用户:没有扣款。如果项目没有解锁,请用户使用“恢复购买”。"),
          reach: "buy Remove Ads twice with the same user (scenario bought-twice-restored)"),
        e("hud-backgrounded", ("Payment continues in the background", "付款在后台继续"),
          sees: ("“Payment went through: it continues in the background” after pressing Esc on “Purchasing…”.",
                 "在“正在购买…”时按 Esc 后,显示“付款已完成:将在后台继续处理”。"),
          underneath: ("The user tried to cancel, but Apple had already taken the payment. The app looks at the store's queue again, saves the order and verifies it; 'pending N' counts it, and when the backend confirms, the box turns into “Purchase complete”.",
                       "用户想取消,但苹果已经完成扣款。应用会重新查看商店队列,保存订单并验证;标题栏的“待处理 N”会计入它,后端确认后提示框变为“购买成功”。"),
          support: ("Tell the user the payment is being confirmed and the item will arrive shortly; check 'pending' goes back to 0.",
                    "告诉用户付款正在确认,物品很快到账;确认“待处理”回到 0。"),
          reach: "--fault observer-lost, buy, wait 2 s, Esc"),
        e("hud-confirming", ("Confirming payment", "正在确认支付"),
          sees: ("“Confirming payment…” with the product and price.", "“正在确认支付…”,并显示商品与价格。"),
          underneath: ("Apple charged the user. The client saved the order, then sent the receipt to the backend and waits for its verdict.",
                       "Apple 已扣款。客户端已保存订单,正把收据发给后端并等待验证结果。"),
          support: ("Wait. The order is already safe on the device: Esc leaves it pending in the background.",
                    "稍候。订单已安全保存在设备上:按 Esc 可转入后台继续处理。"),
          reach: "scripts/run --user alice, Enter"),
        e("hud-confirming-retry", ("Confirming, retrying", "确认中,重试"),
          sees: ("“Confirming payment…” with “retry N · next in Ns”.", "“正在确认支付…”,并显示“重试 N · 下次 N 秒”。"),
          underneath: ("Verification failed (backend unreachable, timeout, 5xx, receipt not ready, status 21007…); the order stays pending and is retried with growing back-off.",
                       "验证失败(后端不可达、超时、5xx、收据未就绪、状态 21007…);订单保持待处理,并以递增间隔重试。"),
          support: ("Nothing is lost. If retries pass 10, an alarm shows: check the backend's health and logs for this transaction.",
                    "不会丢单。若重试超过 10 次会出现警报:检查后端状态和该交易的日志。"),
          reach: "scenario backend-down-retries"),
        e("hud-success", ("Purchase complete", "购买成功"),
          sees: ("“Purchase complete” and the new balance.", "“购买成功”以及新的余额。"),
          underneath: ("The backend credited the transaction once, to the buyer; the client then finished it with the store and dropped it from the device.",
                       "后端已为买家入账(仅一次);客户端随后结束了该交易并从设备上删除。"),
          support: ("Nothing to do.", "无需处理。"),
          reach: "scripts/run --user alice, Enter, wait"),
        e("hud-restored", ("Purchases restored", "已恢复购买"),
          sees: ("“✓ Purchases restored (1)” with the product, and no price.", "“✓ 已恢复购买(1)”,显示商品,不显示价格。"),
          underneath: ("The product the account already owned came back as a `restored` transaction; the backend found the original purchase's credit and credited nothing new; the transaction is finished.",
                       "账户已拥有的商品以“restored”交易恢复;后端找到原始购买的入账,没有重复入账;交易已完成。"),
          support: ("Nothing was charged. If the item still looks locked, check the backend's credit of the original transaction.",
                    "没有扣款。若项目仍显示未解锁,请在后端查看原始交易的入账。"),
          reach: "scenario bought-twice-restored"),
        e("hud-failed", ("Purchase failed", "交易失败"),
          sees: ("“Purchase failed”.", "“交易失败”。"),
          underneath: ("The store reported the payment failed (declined card, another unfinished transaction of the same product, an interrupted purchase…). Nothing was charged for this transaction.",
                       "商店报告支付失败(卡被拒、同一商品有未结束的交易、购买被中断…)。这笔交易没有扣款。"),
          support: ("Ask the user to try again. After an interrupted purchase, a successful payment may still arrive and be credited.",
                    "请用户重试。购买被中断后,可能仍会收到成功的支付并入账。"),
          reach: "--fault purchase-fails, or scenario failed-then-purchased"),
        e("hud-cancelled", ("Purchase cancelled", "已取消购买"),
          sees: ("“Purchase cancelled”.", "“已取消购买”。"),
          underneath: ("The user tapped Cancel on the payment sheet; nothing was charged.", "用户在支付界面点了取消;没有扣款。"),
          support: ("Nothing to do.", "无需处理。"),
          reach: "--fault user-cancels, or Esc while Purchasing…"),
        e("hud-deferred", ("Waiting for approval", "等待批准"),
          sees: ("“Waiting for approval”.", "“等待批准”。"),
          underneath: ("Ask to Buy: the payment waits for a parent. Nothing is charged until they approve; the result arrives later, even after a relaunch.",
                       "家长批准购买:支付在等家长决定。批准前不会扣款;结果稍后送达,即使应用重启也会送达。"),
          support: ("Tell the user to ask the family organiser; if approved, the credit arrives by itself.", "请用户联系家庭组织者;批准后会自动入账。"),
          reach: "scenario ask-to-buy-approved or ask-to-buy-declined"),
        e("hud-disabled", ("In-App Purchases disabled", "未开启应用内购买"),
          sees: ("“Please enable In-App Purchases”.", "“请打开 Apple 支付”。"),
          underneath: ("canMakePayments is off (Screen Time restrictions); the app did not ask the store.", "canMakePayments 为关(屏幕使用时间限制);应用没有向商店发起请求。"),
          support: ("Guide the user to Settings → Screen Time → Content & Privacy → iTunes & App Store Purchases.",
                    "引导用户:设置 → 屏幕使用时间 → 内容和隐私访问限制 → iTunes 与 App Store 购买项目。"),
          reach: "--fault payments-disabled"),
        e("hud-verify-failed", ("Verification failed", "验证失败"),
          sees: ("“Verification failed, please contact support”.", "“验证失败,请联系客服”。"),
          underneath: ("The backend rejected the receipt for good (21003 not authentic, 21010 account gone); the client finished the transaction without a credit.",
                       "后端判定收据无效(21003 无法认证,21010 账号不存在);客户端结束了交易,未入账。"),
          support: ("Ask for the Apple receipt (order ID from the email); check it on the backend; compensate by hand or refer to Apple for a refund.",
                    "请用户提供 Apple 收据(邮件中的订单号);在后端核查;人工补偿或引导向 Apple 申请退款。"),
          reach: "--fault verify-status=21003"),
        e("hud-jailbroken", ("Device refused", "设备不支持"),
          sees: ("“Purchases are not available on this device”.", "“此设备不支持内购”。"),
          underneath: ("The app detected a jailbroken device and refused before asking the store; nothing was charged.",
                       "应用检测到越狱设备,在请求商店前就拒绝了;没有扣款。"),
          support: ("Explain the policy; purchases work on a non-jailbroken device.", "说明政策;在未越狱的设备上可以购买。"),
          reach: "scenario jailbroken"),
        e("prompt-unfinished", ("Unfinished order found", "发现未完成订单"),
          sees: ("“Unfinished order found” with Continue and Later.", "“发现未完成订单”,带“继续处理”和“稍后”。"),
          underneath: ("At login the device holds a paid order of this user not yet confirmed (app killed, network down, reinstall). Continue verifies it now; Later leaves it for the next trigger.",
                       "登录时设备上有该用户已付款但未确认的订单(应用被杀、断网、重装)。“继续处理”立即验证;“稍后”留待下次触发。"),
          support: ("Tell the user to press Continue with the network on; the credit arrives once, whatever happened before.",
                    "请用户在联网时点“继续处理”;无论之前发生什么,只会入账一次。"),
          reach: "scenario paid-then-killed"),
        e("logout-warning", ("Logout with pending orders", "带着待处理订单退出"),
          sees: ("“Orders still pending — log out anyway?” with the orders; Stay is the default.", "“有订单尚未完成,仍要退出登录吗?”并列出订单;默认“留下”。"),
          underneath: ("Pending orders belong to this user and stay on the device; they are never credited to whoever logs in next, and come back when this user does.",
                       "待处理订单属于该用户并保留在设备上;绝不会记到下一个登录的人名下,该用户回来时会再次出现。"),
          support: ("Advise Stay until the orders are confirmed; if they log out anyway, they must log back in on this device to finish.",
                    "建议先“留下”直到订单确认;若仍退出,需在此设备上重新登录以完成订单。"),
          reach: "scenario backend-down-retries, Esc, L"),
        e("quit-confirm", ("Quit during a purchase", "购买中退出"),
          sees: ("“A purchase is in flight. Quit anyway?”", "“有购买正在进行,仍要退出吗?”"),
          underneath: ("A payment or verification is under way; quitting does not lose it (it is recovered at the next launch), but the user will not see the result now.",
                       "支付或验证正在进行;退出不会丢单(下次启动会恢复),只是现在看不到结果。"),
          support: ("Advise waiting for the result.", "建议等待结果。"),
          reach: "q while Purchasing…"),
        e("backend-down", ("Backend unreachable", "后端不可达"),
          sees: ("A “backend down” badge above the key hints.", "按键提示上方有“后端不可达”标记。"),
          underneath: ("The app's server cannot be reached: orders can still be paid (the buyer is noted on the device) but not verified until it is back.",
                       "无法连接应用服务器:仍可付款(设备记下买家),但要等服务器恢复后才能验证。"),
          support: ("Check the service status; orders recover by themselves when it is back.", "检查服务状态;恢复后订单会自动处理。"),
          reach: "--fault backend-down, or b"),
        e("fault-badges", ("Armed faults", "已启用的故障"),
          sees: ("Badges naming each armed fault, “·once” for one-shot ones.", "每个已启用故障的标记,一次性的带“·once”。"),
          underneath: ("QA armed faults of the store, backend or app; they change what the mock parties do until disarmed (or once).",
                       "QA 启用了商店、后端或应用的故障;在关闭之前(或仅一次)会改变模拟方的行为。"),
          support: ("Training only: real users never see these.", "仅用于培训:真实用户看不到。"),
          reach: "--fault NAME, or F"),
        e("alarm", ("Alarm", "警报"),
          sees: ("“ALARM: …” in red above the key hints.", "按键提示上方红色的“警报:…”。"),
          underneath: ("Something that must not be silent: an order failed 10 verifications, or the device could not save an order.",
                       "不能静默的问题:某订单验证失败已达 10 次,或设备无法保存订单。"),
          support: ("Escalate to engineering with the transaction id shown.", "带上显示的交易号升级给技术人员。"),
          reach: "scenario backend-down-retries with 10 retries (t skips the waits)"),
        e("unattributed", ("Payment waiting for support", "付款等待客服处理"),
          sees: ("“ALARM: tx … paid, buyer unknown: support assigns it”, and the inspector lists it as unclaimed.",
                 "“警报:交易……已付款,买家不明:待客服分配”,检查器中显示为未认领。"),
          underneath: ("Apple charged for a payment whose order id came back empty, and several users on this device had started paying for that product: the app will not guess whose it is. The transaction stays unfinished in the store's queue, nothing is credited and nothing is lost.",
                       "苹果已扣款,但该付款的订单号为空,且本设备上有多位用户都发起过该商品的付款:应用不会猜测归属。该交易留在商店队列中未完成,没有入账,也没有丢失。"),
          support: ("Look the transaction up in Apple's records (the account that paid) and assign it to that user (script step `assign TX USER`); it is then verified and credited to them.",
                    "在苹果的记录中查到付款账户,把交易分配给该用户(脚本步骤 `assign 交易号 用户`);之后会为其验证并入账。"),
          reach: "scenario unattributed-payment"),
        e("too-small", ("Terminal too small", "终端太小"),
          sees: ("“Terminal too small: need at least 64×18”.", "“终端太小,至少需要 64×18”。"),
          underneath: ("The window is smaller than the app can draw; nothing else changed.", "窗口小于应用可绘制的尺寸;其他一切不变。"),
          support: ("Enlarge the window.", "放大窗口。"),
          reach: "resize the terminal below 64×18"),
        e("help", ("Keys", "按键"),
          sees: ("Every key with what it does.", "所有按键及其作用。"),
          underneath: ("The keymap the app dispatches with; nothing happens to orders while it is open.", "应用实际使用的按键表;打开时订单照常处理。"),
          support: ("Nothing to do.", "无需处理。"),
          reach: "?"),
        e("fault-panel", ("Fault panel", "故障面板"),
          sees: ("Every fault of the store, backend and app, with what is armed.", "商店、后端与应用的所有故障及其启用状态。"),
          underneath: ("QA's tool to cause failures on purpose; also “crash now” and “reinstall”.", "QA 用来故意制造故障的工具;还有“立即崩溃”和“重装”。"),
          support: ("Training only.", "仅用于培训。"),
          reach: "F"),
        e("scenarios", ("Scenarios", "场景"),
          sees: ("The list of known loss cases.", "已知丢单情形的列表。"),
          underneath: ("Each sets up its situation on its own data and hands the app over.", "每个场景在独立数据上布置好情形后交给你操作。"),
          support: ("Training only.", "仅用于培训。"),
          reach: "S"),
        e("inspector", ("Inspector", "检查器"),
          sees: ("The store's queue, the client's orders, the backend's credits and a timeline.", "商店队列、客户端订单、后端入账和时间线。"),
          underneath: ("What each party holds right now, and the events that led here.", "三方此刻各自保存的内容,以及导致现状的事件。"),
          support: ("Use it to explain where a payment is: charged (store), saved (client), credited (backend).",
                    "用它讲解一笔款项在哪一步:已扣款(商店)、已保存(客户端)、已入账(后端)。"),
          reach: "i"),
        e("state-catalog", ("States explained", "状态说明"),
          sees: ("This list: every state with its explanation.", "本列表:每个状态及其说明。"),
          underneath: ("The catalog the gallery is built from.", "图库据此生成。"),
          support: ("Training only.", "仅用于培训。"),
          reach: "E (e explains the state on screen)"),
    ]
}

extension AppState {
    /// The catalog entry of what the user is looking at right now (the innermost thing on screen).
    public var visibleStateId: String {
        switch modal {
        case .help: return "help"
        case .quitConfirm: return "quit-confirm"
        case .unfinished: return "prompt-unfinished"
        case .logoutWarning: return "logout-warning"
        case .faultPanel: return "fault-panel"
        case .scenarios: return "scenarios"
        case .inspector: return "inspector"
        case .explain, .stateCatalog: return "state-catalog"
        case nil: break
        }
        if let hud {
            if hud.kind == .confirming, let id = hud.transactionId, (orders[id]?.attempts ?? 0) > 0 { return "hud-confirming-retry" }
            return "hud-" + hud.kind.catalogName
        }
        guard user != nil else { return "login" }
        if alarms.contains(where: { if case .unattributed = $0 { true } else { false } }) { return "unattributed" }
        if !alarms.isEmpty { return "alarm" }
        switch productsStatus {
        case .loading: return "loading"
        case .empty, .failed: return "no-products"
        case .loaded: break
        }
        if faults.contains(.backendDown) { return "backend-down" }
        if !faults.isEmpty { return "fault-badges" }
        return pendingCount > 0 ? "products-pending" : "products"
    }
}

extension HUD.Kind {
    public var catalogName: String {
        switch self {
        case .purchasing: "purchasing"
        case .alreadyOwned: "already-owned"
        case .backgrounded: "backgrounded"
        case .confirming: "confirming"
        case .success: "success"
        case .restored: "restored"
        case .failed: "failed"
        case .cancelled: "cancelled"
        case .deferred: "deferred"
        case .disabled: "disabled"
        case .verifyFailed: "verify-failed"
        case .jailbroken: "jailbroken"
        }
    }
}
