import Foundation
import IAPCore

/// The inspector's event timeline: each action in words, with the work it led to (the "why" of what follows), in
/// both languages so that switching language redraws it too. What an action's line needs of the state is taken when
/// it happens; the words are made when the line is first read.
public struct Timeline: Sendable {
    private var lines: [Line] = []
    private let capacity: Int
    /// When its first line was told: its times count from there, whichever lines it still keeps.
    public private(set) var origin: Date?

    public init(capacity: Int = 200) {
        self.capacity = capacity
    }

    public func entries(_ lang: Language) -> [InspectorView.Entry] {
        lines.suffix(capacity).compactMap { line in line.text.map { InspectorView.Entry(at: line.at, text: $0[lang]) } }
    }

    /// Something the program around the app saw (a request on the wire), in both languages.
    public mutating func note(_ text: Localized, at date: Date) {
        add(Line(at: date, .told(text)))
    }

    private mutating func add(_ line: Line) {
        if origin == nil { origin = line.at }
        lines.append(line)
        // The oldest lines are dropped a capacity's worth at a time: dropped one by one, every line told moved them all.
        if lines.count >= 2 * capacity { lines.removeFirst(lines.count - capacity) }
    }

    /// What the timeline tells of the state an action is reduced from, taken before the reducer runs: a copy of the whole
    /// state kept alive while the reducer changes it would have each collection it changes copy itself, at every action.
    public struct Before: Sendable {
        let user: String?
        let keyContext: KeyContext
        let storeKit: StoreKitMode
        /// The acting user's last reading of their subscriptions or account, for a new reading of them.
        let subscriptionsReading: [SubscriptionStatus]?
        let accountReading: Account?
        /// The unfinished order the prompt on screen asks about, when it is among the session's prompts.
        let prompted: String?
        let refundedProduct: Localized?
        /// The queue's state, as the app last saw it, of each transaction a new reading of the queue names.
        let queueStates: [String: TransactionState]
        let purchaseInFlight: Int64?
        /// Why the key did nothing, should it do nothing.
        let nothingDone: Localized?

        public init(_ action: Action, _ state: borrowing AppState) {
            user = state.user
            keyContext = state.keyContext
            storeKit = state.storeKit
            let session = state.session
            subscriptionsReading = if case let .subscriptionsLoaded(user, _) = action, session?.user == user { session?.subscriptionsReading } else { nil }
            accountReading = if case let .accountLoaded(user, _) = action, session?.user == user { session?.accountReading } else { nil }
            refundedProduct = if case let .refundAnswered(_, _?, productId) = action {
                productId.flatMap(state.product)?.title ?? Localized(productId ?? "?")
            } else { nil }
            let read = if case let .storeUpdated(transactions, _, _) = action { transactions } else { [StoreTransaction]() }
            queueStates = Dictionary(read.compactMap { read in state.device.storeQueue[read.id].map { (read.id, $0.state) } }, uniquingKeysWith: { first, _ in first })
            purchaseInFlight = read.isEmpty ? nil : Timeline.unanswered(state)
            prompted = if case let .unfinished(id, _) = state.modal, session?.prompts.contains(id) == true { id } else { nil }
            nothingDone = Timeline.nothingDone(action, state)
        }
    }

    /// An action as it was reduced from `before` (to `after`, when known), with the effects it led to. What the store
    /// and the backend do on their own reaches the app only as a new reading, told as its difference from the reading
    /// `before` held.
    public mutating func record(_ action: Action, _ effects: [Effect], from before: AppState, to after: AppState? = nil, at date: Date) {
        record(action, effects, from: Before(action, before), to: after ?? before, at: date)
    }

    public mutating func record(_ action: Action, _ effects: [Effect], from before: Before, to after: borrowing AppState, at date: Date) {
        let text: Localized?
        let putOff = Self.putOff(from: before, to: after)
        let then = after.user != before.user ? Self.switched(from: before.user, to: after.user) : nil
        let nothingDone = effects.isEmpty ? before.nothingDone : nil
        switch action {
        case let .subscriptionsLoaded(_, statuses):
            text = before.subscriptionsReading.flatMap { Self.news(since: $0, statuses, at: date) }
        case let .accountLoaded(user, account):
            text = before.accountReading.flatMap { Self.losses(of: user, since: $0, account) }
        case .key where putOff != nil:
            // Later at the unfinished-order prompt changes nothing the parties see: the app's choice is the news.
            text = putOff.map { id in
                Localized(en: "client: unfinished tx \(id) put off (Later): it waits for the next trigger", zh: "客户端:未完成的 tx \(id) 已推迟(稍后):等待下次触发")
            }
        case .key(.char) where effects.isEmpty && [.login, .loginEmpty, .redeemSheet].contains(before.keyContext):
            // A letter typed into a text field (a login name, an offer code) is text, not a command.
            text = nil
        case let .key(key) where effects.isEmpty && Keymap.command(for: key, in: before.keyContext).map(Keymap.moves.contains) == true:
            // Moving a cursor or scrolling (the timeline itself) is not news: told, each step would push a line out of view.
            text = nil
        case let .refundAnswered(_, id?, _):
            // By the product's name: the Apple ID's latest purchase may be another app user's.
            text = Localized(en: "Apple: tx \(id) refunded (", zh: "Apple:tx \(id)(") + (before.refundedProduct ?? Localized("?")) + Localized(en: ")", zh: ")已退款")
        case let .storeUpdated(transactions, held, more) where !transactions.isEmpty:
            // The observer hears of a state change once (purchase(options:) returns once): a later reading of a payment
            // still in flight or waiting for a parent is no news, unless it led to something.
            let news = transactions.filter { ![.purchasing, .deferred].contains($0.state) || before.queueStates[$0.id] != $0.state }
            guard !news.isEmpty || !effects.isEmpty else { return }
            return add(Line(at: date, .action(.storeUpdated(news.isEmpty ? transactions : news, held: held, more: more), effects,
                                              StoreKitWords(before.storeKit, purchaseInFlight: before.purchaseInFlight), nothingDone: nil, then: then)))
        default:
            let line = Line(at: date, .action(action, effects, StoreKitWords(before.storeKit), nothingDone: nothingDone, then: then))
            // A line that may tell nothing is worded now, so that a line is kept only for what tells something (any
            // other line that turns out to tell nothing is left out when it is read).
            if Self.mayTellNothing(action), line.text == nil { return }
            return add(line)
        }
        guard let text else { return }
        add(Line(at: date, .told(Self.followed(text, by: then))))
    }

    /// Actions whose line may tell nothing at all.
    private static func mayTellNothing(_ action: Action) -> Bool {
        switch action {
        case .cancelAnswered, .scenariosListed, .devicesListed, .pendingPageLoaded, .serving: true
        default: false
        }
    }

    /// A line with what follows it, if anything does.
    static func followed(_ text: Localized, by then: Localized?) -> Localized {
        then.map { text + " → " + $0 } ?? text
    }

    /// The order a key put off at the unfinished-order prompt (Later); nil for any other key.
    private static func putOff(from before: Before, to after: borrowing AppState) -> String? {
        // Later leaves the order out of the prompts and put off in the queue (Continue takes it out of both; `?` or
        // quitting, out of neither), however often it was put off before.
        guard let id = before.prompted, let after = after.session, !after.prompts.contains(id), after.queue.snoozed.contains(id) else { return nil }
        return id
    }

    /// Who left and who came, as a login or logout leaves the app.
    private static func switched(from left: String?, to came: String?) -> Localized {
        let out = left.map { Localized(en: "\($0) logged out", zh: "\($0) 已登出") }
        let into = came.map { Localized(en: "\($0) logged in", zh: "\($0) 已登录") }
        return [out, into].compactMap { $0 }.joined(separator: Localized(en: ", ", zh: "、"))
    }

    /// StoreKit 2: the payment whose purchase(options:) has not returned yet. Once its transaction was heard of as
    /// purchased (saved as an order, or held in the queue as purchased) the call has returned: a later reading of it
    /// (the queue looked at again) is not its result a second time.
    private static func unanswered(_ state: AppState) -> Int64? {
        guard state.storeKit == .two, let purchase = state.device.purchase else { return nil }
        if let id = purchase.transactionId, state.orders[id] != nil || state.device.storeQueue[id]?.state == .purchased { return nil }
        return purchase.paymentId
    }

    /// An attempt to deliver an App Store Server Notification to the `--notify` server ended (sent, or refused and
    /// retried later, or failed for good): it happens beside the app, on Apple's side, so no action carries it.
    public mutating func record(_ delivery: NotificationDelivery, at date: Date) {
        note(delivery.attemptWords, at: date)
    }

    /// Renewals, billing retries, expiries, refunds and plan changes since the user's last reading. There is none at a
    /// session's first reading, which is where things stand, not news.
    private static func news(since last: [SubscriptionStatus], _ statuses: [SubscriptionStatus], at date: Date) -> Localized? {
        let changes = SubscriptionChange.changes(from: last, to: statuses)
        return changes.isEmpty ? nil : changes.map { $0.words(at: date) }.joined(separator: Localized("; "))
    }

    /// What the backend took back since the user's last reading (a refund, an entitlement past its expiry and grace);
    /// what it grants is told where it is credited.
    private static func losses(of user: String, since last: Account, _ account: Account) -> Localized? {
        var lines: [Localized] = []
        if account.coins < last.coins {
            let taken = last.coins - account.coins
            lines.append(Localized(en: "backend: \(taken) coins taken back from \(user)", zh: "后端:收回 \(user) 的 \(taken) 金币"))
        }
        for (product, units) in last.units.sorted(by: { $0.key < $1.key }) where account.units[product, default: 0] < units {
            let taken = units - account.units[product, default: 0]
            lines.append(Localized(en: "backend: \(taken) × \(product) taken back from \(user)", zh: "后端:收回 \(user) 的 \(taken) 个 \(product)"))
        }
        for product in last.owned.subtracting(account.owned).sorted() {
            lines.append(Localized(en: "backend: \(user) no longer has \(product)", zh: "后端:\(user) 不再拥有 \(product)"))
        }
        return lines.isEmpty ? nil : lines.joined(separator: Localized("; "))
    }

    static func line(_ action: Action, _ effects: [Effect], _ now: Date, _ words: StoreKitWords,
                             nothingDone: Localized? = nil) -> Localized? {
        guard let text = describe(action, words) else { return nil }
        let work = effects.compactMap { describe($0, now: now, words) }
        if work.isEmpty, let nothingDone { return text + " → " + nothingDone }
        return work.isEmpty ? text : text + " → " + work.joined(separator: Localized(en: ", ", zh: "、"))
    }

    /// Why a support key did nothing, where the screen would otherwise not say.
    private static func nothingDone(_ action: Action, _ before: AppState) -> Localized? {
        guard case let .key(key) = action, before.modal == .inspector else { return nil }
        switch Keymap.command(for: key, in: before.keyContext) {
        case .compensate? where before.compensableOrder == nil:
            let user = before.user ?? "—"
            return Localized(en: "nothing to compensate: no order of \(user)'s is waiting with an order id", zh: "无可补单:\(user) 没有带订单号的待处理订单")
        case .assignUnclaimed? where before.unclaimed.isEmpty:
            return Localized(en: "nothing to assign: no payment is waiting for its buyer", zh: "无可分配:没有等待认定买家的付款")
        default:
            return nil
        }
    }

    static func describe(_ action: Action, _ words: StoreKitWords) -> Localized? {
        switch action {
        case let .launched(canPay, user):
            let who = user.map { Localized(en: " as \($0)", zh: ",用户 \($0)") } ?? Localized("")
            let pay = canPay ? Localized("") : Localized(en: ", payments disabled", zh: ",支付已关闭")
            return Localized(en: "app launched", zh: "应用启动") + who + pay
        case let .key(key):
            return Localized(en: "key ", zh: "按键 ") + name(of: key)
        case let .intent(intent):
            return Localized(en: "asked: ", zh: "请求:") + Localized("\(intent)")
        case let .productsLoaded(.success(list)):
            return words.products(list.count)
        case .productsLoaded(.failure):
            return words.productsFailed
        case let .userLoaded(name, snapshot):
            let count = snapshot.map { $0.pendingTotal + $0.pending.filter { $0.status != .pending }.count } ?? 0
            return Localized(en: "client: \(name)'s store read, \(count) order\(count == 1 ? "" : "s")", zh: "客户端:读取 \(name) 的存储,\(count) 笔订单")
        case .accountLoaded, .subscriptionsLoaded:
            return nil  // told by `record`, as differences from the last reading
        case let .orderCreated(user, productId, result, eligibility):
            switch result {
            case let .success(id) where eligibility != nil:
                let word = switch eligibility?.allows {
                case true?: Localized(en: ": allowed", zh: ":允许")
                case false?: Localized(en: ": withheld", zh: ":不允许")
                case nil: Localized("")
                }
                return Localized(en: "backend: order \(id) for \(user), \(productId), with its word on the intro offer\(word.en) (JWS)",
                                 zh: "后端:为 \(user) 创建订单 \(id),\(productId),附带对介绍性优惠的签名意见\(word.zh)(JWS)")
            case let .success(id):
                return Localized(en: "backend: order \(id) for \(user), \(productId)", zh: "后端:为 \(user) 创建订单 \(id),\(productId)")
            case let .failure(error):
                let why = VerifyOutcome(.failure(error)).reason?.words ?? Localized("\(error)")
                return Localized(en: "backend: no order for \(user) (\(why.en))", zh: "后端:未能为 \(user) 创建订单(\(why.zh))")
            }
        case let .appAccountTokenFetched(user, .success(token)):
            let short = token.uuidString.lowercased().suffix(12)
            return Localized(en: "backend: appAccountToken …\(short) for \(user)", zh: "后端:\(user) 的 appAccountToken …\(short)")
        case let .appAccountTokenFetched(user, .failure(error)):
            let why = VerifyOutcome(.failure(error)).reason?.words ?? Localized("\(error)")
            // A purchase waiting for it goes on without one: its order, after the arrow, says so. At login none waits.
            return Localized(en: "backend: no appAccountToken for \(user) (\(why.en))", zh: "后端:未能取得 \(user) 的 appAccountToken(\(why.zh))")
        case let .codeRedeemed(typed, .success(id)):
            // As the App Store read it: case and spaces do not matter.
            let code = SubscriptionOffer.normalizedCode(typed)
            return Localized(en: "store: offer code \(code) redeemed" + (id.map { ", tx \($0)" } ?? ", from the next renewal"),
                             zh: "商店:已兑换优惠码 \(code)" + (id.map { ",tx \($0)" } ?? ",自下次续期起"))
        case let .codeRedeemed(typed, .failure(error)):
            let code = SubscriptionOffer.normalizedCode(typed)
            return Localized(en: "store: offer code \(code) refused (\(error.rawValue))", zh: "商店:优惠码 \(code) 被拒(\(error.rawValue))")
        case let .offerSigned(_, productId, _, .success(.discount(discount))):
            return Localized(en: "backend: offer \(discount.identifier) for \(productId) signed (key \(discount.keyIdentifier))",
                             zh: "后端:已为 \(productId) 签名优惠 \(discount.identifier)(密钥 \(discount.keyIdentifier))")
        case let .offerSigned(_, productId, _, .success(.signed(offer))):
            return Localized(en: "backend: offer \(offer.offerIdentifier) for \(productId) signed (JWS)",
                             zh: "后端:已为 \(productId) 签名优惠 \(offer.offerIdentifier)(JWS)")
        case let .offerSigned(_, productId, _, .failure):
            return Localized(en: "backend: could not sign the offer for \(productId)", zh: "后端:无法为 \(productId) 签名优惠")
        case let .intentRecorded(user, productId, intent):
            guard let intent else {
                return Localized(en: "client: could not note \(user) as the buyer of \(productId)", zh: "客户端:无法记下 \(user) 为 \(productId) 的买家")
            }
            return Localized(en: "client: \(user) noted as the buyer of \(productId) (intent \(intent.id))",
                             zh: "客户端:已记下 \(user) 为 \(productId) 的买家(意图 \(intent.id))")
        case let .restoreAnswered(user, .success(ids)):
            return words.restored(ids.count, to: user)
        case let .restoreAnswered(user, .failure):
            return words.restoreFailed(for: user)
        case let .cancelAnswered(id, cancelled):
            if cancelled { return nil }
            return Localized(en: "store: too late to cancel tx \(id), the payment went through", zh: "商店:tx \(id) 已付款,无法取消")
        case .refundAnswered(_, _?, _):
            return nil  // told by `record`, which knows the product's name
        case .refundAnswered(_, nil, _):
            return Localized(en: "Apple: nothing to refund (no unrefunded purchase by the signed-in Apple ID)",
                             zh: "Apple:没有可退款的购买(当前 Apple ID 没有未退款的购买)")
        case let .assignToBuyer(id, user):
            return Localized(en: "support: tx \(id) assigned to \(user)", zh: "客服:tx \(id) 分配给 \(user)")
        case let .storeUpdated(transactions, _, _) where transactions.isEmpty:
            return words.nothingUnfinished
        case let .storeUpdated(transactions, _, _):
            return words.delivered(transactions.prefix(3).map { words.delivered($0) + renewal($0) })
                + (transactions.count > 3 ? "; +\(transactions.count - 3)" : "")
        case let .persisted(order, ok):
            let failed = ok ? Localized("") : Localized(en: " — WRITE FAILED", zh: " —— 写入失败")
            return Localized(en: "client: tx \(order.transactionId) saved for \(order.user), ", zh: "客户端:tx \(order.transactionId) 已为 \(order.user) 保存,")
                + status(order.status) + Localized(en: ", \(order.attempts) \(order.attempts == 1 ? "try" : "tries")", zh: ",已试 \(order.attempts) 次") + failed
        case let .verified(order, outcome):
            return verdict(order.transactionId, outcome)
        case let .entitlementSent(user, id, .valid), let .entitlementSent(user, id, .alreadyCredited):
            // Credited when it was bought: a restore only says who holds it.
            return Localized(en: "restore for \(user): backend: tx \(id) valid, held by \(user)", zh: "为 \(user) 恢复:后端:tx \(id) 有效,归 \(user) 所有")
        case let .entitlementSent(user, id, outcome):
            return Localized(en: "restore for \(user): ", zh: "为 \(user) 恢复:") + verdict(id, outcome)
        case let .finished(id, _, found):
            return words.finished(id, found: found)
        case .tick:
            return Localized(en: "retry timer", zh: "重试计时到")
        case let .setFault(fault, arm):
            guard let arm else { return Localized(en: "fault cleared: ", zh: "故障已关闭:") + fault.rawValue }
            return Localized(en: "fault armed: ", zh: "故障已启用:") + fault.rawValue + (arm.once ? once : Localized(""))
        case let .faultFired(fault):
            return Localized(en: "fault fired: ", zh: "故障触发:") + fault.rawValue
        case let .switchUser(name):
            return Localized(en: "account switched to \(name)", zh: "账号切换为 \(name)")
        case let .appleIdSignedIn(name):
            return Localized(en: "device: Apple ID \(name) signed in, it pays from now on", zh: "设备:Apple ID \(name) 已登录,此后由它付款")
        case let .entitlementsRevoked(productIds):
            return Localized(en: "store: Family Sharing revoked ", zh: "商店:家人共享已撤销 ") + productIds.joined(separator: ", ")
        case .foreground:
            return Localized(en: "app back in the foreground", zh: "应用回到前台")
        case let .setLanguage(language):
            return Localized(en: "language ", zh: "语言 ") + language.rawValue
        case .scenariosListed, .devicesListed, .pendingPageLoaded:
            return nil
        case let .alarm(alarm):
            return Localized(en: "ALARM: ", zh: "警报:") + alarm.words
        case let .alarmsReported(sent, ok):
            return ok ? Localized(en: "backend: \(sent.count) alarm(s) received for support", zh: "后端:已收到 \(sent.count) 条警报,供客服查看")
                : Localized(en: "alarm upload failed; sent again at the next trigger", zh: "警报上传失败;下次触发时重发")
        case let .serving(address):
            return address.map { Localized(en: "serving Apple's endpoints on http://\($0)", zh: "在 http://\($0) 提供 Apple 接口") }
        }
    }

    private static let once = Localized(en: " (once)", zh: "(一次)")

    /// A charge the store made on its own in a subscription's chain: no order, no payment of the app's.
    private static func renewal(_ transaction: StoreTransaction) -> Localized {
        guard transaction.isRenewal, let original = transaction.originalTransactionId else { return Localized("") }
        return Localized(en: ", a renewal of \(original)", zh: ",为 \(original) 的续期")
    }

    /// An order's status; in English its stored name.
    private static func status(_ status: PendingOrder.Status) -> Localized {
        switch status {
        case .pending: Localized(en: status.rawValue, zh: "待处理")
        case .verified: Localized(en: status.rawValue, zh: "已验证")
        case .rejected: Localized(en: status.rawValue, zh: "已拒绝")
        }
    }

    private static func name(of key: Key) -> String {
        switch key {
        case let .char(c): String(c)
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .enter: "Enter"
        case .escape: "Esc"
        case .backspace: "⌫"
        case .tab: "Tab"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .home: "Home"
        case .end: "End"
        }
    }

    /// The app's server's answer on one transaction, as the client takes it.
    private static func verdict(_ id: String, _ outcome: VerifyOutcome) -> Localized {
        switch outcome {
        case .valid: return Localized(en: "backend: tx \(id) valid, credited", zh: "后端:tx \(id) 有效,已入账")
        // A renewal the backend credited on Apple's notification, a restore or a free re-buy: credited, once.
        case .alreadyCredited: return Localized(en: "backend: tx \(id) valid, already credited: this check adds no second credit",
                                                zh: "后端:tx \(id) 有效,已入账:此次验证不会重复入账")
        case let .creditedElsewhere(other):
            return Localized(en: "backend: tx \(id) valid, kept with \(other) (another account)", zh: "后端:tx \(id) 有效,归属 \(other)(另一个账号)")
        case let .invalid(status): return Localized(en: "backend: tx \(id) invalid (\(status))", zh: "后端:tx \(id) 无效(\(status))")
        case let .retry(reason):
            return Localized(en: "backend: tx \(id) not verified: ", zh: "后端:tx \(id) 未验证:") + reason.words
        case let .kept(status):
            return Localized(en: "backend: tx \(id) kept, backend retrying Apple (\(status)); the client polls",
                             zh: "后端:tx \(id) 已收下,后端正在重试 Apple(\(status));客户端轮询")
        case let .misconfigured(status):
            return Localized(en: "backend: tx \(id) not verified, server misconfigured (\(status)); waits for the next launch",
                             zh: "后端:tx \(id) 未验证,服务器配置有误(\(status));等下次启动再试")
        }
    }

    static func describe(_ effect: Effect, now: Date, _ words: StoreKitWords) -> Localized? {
        switch effect {
        case let .verify(order): return Localized(en: "verify ", zh: "验证 ") + order.transactionId
        case let .persist(order, _): return Localized(en: "save ", zh: "保存 ") + order.transactionId
        case .closeIntent: return Localized(en: "close the buyer's note", zh: "关闭买家记录")
        case .lookUpPayers: return Localized(en: "support looks the payers up in Apple's records", zh: "客服在苹果记录中查询付款人")
        case let .readStoreQueue(after): return after > 0 ? nil : words.readUnfinished
        case let .finish(id, _): return words.finish(id)
        case let .remove(id, _): return Localized(en: "drop \(id) from the client", zh: "从客户端删除 \(id)")
        case let .createOrder(_, productId, _): return Localized(en: "create order (\(productId))", zh: "创建订单(\(productId))")
        case .recordIntent: return Localized(en: "note the buyer", zh: "记下买家")
        case let .addPayment(payment): return words.pay(payment.productId)
        case .cancelPayment: return Localized(en: "cancel the payment", zh: "取消付款")
        case .restorePurchases, .syncAppStore: return words.restore
        case let .sendEntitlement(id, user):
            return Localized(en: "send tx \(id) to the server, restored by \(user)", zh: "把 tx \(id) 发给服务器,由 \(user) 恢复")
        case let .wake(date):
            let seconds = Int(date.timeIntervalSince(now).rounded(.up))
            return Localized(en: "next retry in \(seconds)s", zh: "\(seconds) 秒后重试")
        case let .crash(reason): return Localized(en: "CRASH (\(reason.en))", zh: "崩溃(\(reason.zh))")
        case .reinstall: return Localized(en: "reinstall", zh: "重装")
        case let .compensate(orderId): return Localized(en: "support compensates order \(orderId) by hand", zh: "客服人工补单 \(orderId)")
        case let .setAutoRenew(on, original):
            return on ? Localized(en: "resume auto-renew of \(original)", zh: "恢复 \(original) 的自动续期")
                      : Localized(en: "cancel auto-renew of \(original)", zh: "取消 \(original) 的自动续期")
        case let .agreeToPriceIncrease(original):
            return Localized(en: "agree to the new price of \(original)", zh: "同意 \(original) 的新价格")
        // Apple refunds the Apple ID's purchase, whichever app user of it the backend credited.
        case .refund: return Localized(en: "Apple refunds the signed-in Apple ID's latest purchase, a paid one first", zh: "Apple 退款当前 Apple ID 最近一笔购买(优先付费的)")
        case .loadUser: return Localized(en: "read the user's orders", zh: "读取该用户的订单")
        // A call to the backend: a fault fired on it would otherwise seem to come from nowhere.
        case let .refreshAccount(user): return Localized(en: "refresh \(user)'s account", zh: "刷新 \(user) 的账户")
        case let .setFault(fault, arm):
            guard let arm else { return Localized(en: "disarm ", zh: "关闭故障 ") + fault.rawValue }
            return Localized(en: "arm ", zh: "启用故障 ") + fault.rawValue + (arm.once ? once : Localized(""))
        default: return nil
        }
    }
}
