import Foundation
import IAPCore

/// The inspector's event timeline: each action in words, with the work it led to (the "why" of what follows),
/// written in both languages when it happens so that switching language redraws it too.
public struct Timeline: Sendable {
    private var entries: [(at: Date, text: Localized)] = []
    private let capacity: Int

    public init(capacity: Int = 200) {
        self.capacity = capacity
    }

    public func entries(_ lang: Language) -> [InspectorView.Entry] {
        entries.map { InspectorView.Entry(at: $0.at, text: $0.text[lang]) }
    }

    public mutating func record(_ action: Action, _ effects: [Effect], at date: Date) {
        guard Self.describe(action, .en) != nil else { return }
        let text = Localized(en: Self.line(action, effects, date, .en), zh: Self.line(action, effects, date, .zh))
        entries.append((date, text))
        if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
    }

    private static func line(_ action: Action, _ effects: [Effect], _ now: Date, _ lang: Language) -> String {
        let work = effects.compactMap { describe($0, now: now, lang) }
        let text = describe(action, lang) ?? ""
        return work.isEmpty ? text : text + " → " + work.joined(separator: lang == .en ? ", " : "、")
    }

    static func describe(_ action: Action, _ lang: Language) -> String? {
        let en = lang == .en
        switch action {
        case let .launched(canPay, user):
            let who = user.map { en ? " as \($0)" : ",用户 \($0)" } ?? ""
            let pay = canPay ? "" : (en ? ", payments disabled" : ",支付已关闭")
            return (en ? "app launched" : "应用启动") + who + pay
        case let .key(key):
            return (en ? "key " : "按键 ") + name(of: key)
        case let .productsLoaded(.success(list)):
            return en ? "store: \(list.count) products" : "商店:\(list.count) 个商品"
        case .productsLoaded(.failure):
            return en ? "store: product request failed" : "商店:商品请求失败"
        case let .userLoaded(name, snapshot):
            let count = snapshot.map { $0.pendingTotal + $0.pending.filter { $0.status != .pending }.count } ?? 0
            return en ? "client: \(name)'s store read, \(count) orders" : "客户端:读取 \(name) 的存储,\(count) 笔订单"
        case .accountLoaded:
            return nil
        case let .orderCreated(user, productId, result):
            switch result {
            case let .success(id): return en ? "backend: order \(id) for \(user), \(productId)" : "后端:为 \(user) 创建订单 \(id),\(productId)"
            case let .failure(error):
                let why = Alarm.reason(VerifyOutcome(.failure(error)).reason ?? "\(error)", lang)
                return en ? "backend: no order for \(user) (\(why))" : "后端:未能为 \(user) 创建订单(\(why))"
            }
        case let .intentRecorded(user, productId, intent):
            guard let intent else { return en ? "client: could not note \(user) as the buyer of \(productId)" : "客户端:无法记下 \(user) 为 \(productId) 的买家" }
            return en ? "client: \(user) noted as the buyer of \(productId) (intent \(intent.id))" : "客户端:已记下 \(user) 为 \(productId) 的买家(意图 \(intent.id))"
        case let .cancelAnswered(id, cancelled):
            if cancelled { return nil }
            return en ? "store: too late to cancel tx \(id), the payment went through" : "商店:tx \(id) 已付款,无法取消"
        case let .assignToBuyer(id, user):
            return en ? "support: tx \(id) assigned to \(user)" : "客服:tx \(id) 分配给 \(user)"
        case let .storeUpdated(transactions, _, _):
            let listed = transactions.prefix(3).map { "tx \($0.id) \(state($0.state, lang))\($0.error.map { " (\($0.rawValue))" } ?? "")" }
            return (en ? "store: " : "商店:") + listed.joined(separator: "; ") + (transactions.count > 3 ? "; +\(transactions.count - 3)" : "")
        case let .persisted(order, ok):
            let failed = ok ? "" : (en ? " — WRITE FAILED" : " —— 写入失败")
            return en ? "client: tx \(order.transactionId) saved for \(order.user), \(order.status.rawValue), \(order.attempts) tries\(failed)"
                      : "客户端:tx \(order.transactionId) 已为 \(order.user) 保存,\(status(order.status)),已试 \(order.attempts) 次\(failed)"
        case let .verified(order, outcome):
            let id = order.transactionId
            switch outcome {
            case .valid: return en ? "backend: tx \(id) valid, credited" : "后端:tx \(id) 有效,已入账"
            case let .invalid(status): return en ? "backend: tx \(id) invalid (\(status))" : "后端:tx \(id) 无效(\(status))"
            case let .retry(reason):
                return en ? "backend: tx \(id) not verified: \(reason)" : "后端:tx \(id) 未验证:\(Alarm.reason(reason, .zh))"
            }
        case let .finished(id, _, found):
            if found { return en ? "store: tx \(id) finished" : "商店:tx \(id) 已结束" }
            return en ? "store: finish could not find tx \(id)" : "商店:结束交易时找不到 tx \(id)"
        case .tick:
            return en ? "retry timer" : "重试计时到"
        case let .setFault(fault, arm):
            if arm == nil { return (en ? "fault cleared: " : "故障已关闭:") + fault.rawValue }
            return (en ? "fault armed: " : "故障已启用:") + fault.rawValue + (arm?.once == true ? (en ? " (once)" : "(一次)") : "")
        case let .faultFired(fault):
            return (en ? "fault fired: " : "故障触发:") + fault.rawValue
        case let .switchUser(name):
            return en ? "account switched to \(name)" : "账号切换为 \(name)"
        case .foreground:
            return en ? "app back in the foreground" : "应用回到前台"
        case let .setLanguage(language):
            return (en ? "language " : "语言 ") + language.rawValue
        case .scenariosListed, .pendingPageLoaded:
            return nil
        case let .alarm(alarm):
            return (en ? "ALARM: " : "警报:") + alarm.text(lang)
        }
    }

    static func state(_ state: TransactionState, _ lang: Language) -> String {
        guard lang == .zh else { return state.rawValue }
        switch state {
        case .purchasing: return "购买中"
        case .purchased: return "已购买"
        case .failed: return "失败"
        case .restored: return "已恢复"
        case .deferred: return "等待批准"
        }
    }

    private static func status(_ status: PendingOrder.Status) -> String {
        switch status {
        case .pending: "待处理"
        case .verified: "已验证"
        case .rejected: "已拒绝"
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

    static func describe(_ effect: Effect, now: Date, _ lang: Language) -> String? {
        let en = lang == .en
        switch effect {
        case let .verify(order): return (en ? "verify " : "验证 ") + order.transactionId
        case let .persist(order, _): return (en ? "save " : "保存 ") + order.transactionId
        case .closeIntent: return en ? "close the buyer's note" : "关闭买家记录"
        case .lookUpPayers: return en ? "support looks the payers up in Apple's records" : "客服在苹果记录中查询付款人"
        case let .readStoreQueue(after): return after > 0 ? nil : (en ? "look at the store's queue" : "查看商店队列")
        case let .finish(id, _): return (en ? "finish " : "结束 ") + id
        case let .remove(id, _): return en ? "drop \(id) from the client" : "从客户端删除 \(id)"
        case let .createOrder(_, productId): return en ? "create order (\(productId))" : "创建订单(\(productId))"
        case .recordIntent: return en ? "note the buyer" : "记下买家"
        case let .addPayment(payment): return (en ? "pay " : "付款 ") + payment.productId
        case .cancelPayment: return en ? "cancel the payment" : "取消付款"
        case let .wake(date):
            let seconds = Int(date.timeIntervalSince(now).rounded(.up))
            return en ? "next retry in \(seconds)s" : "\(seconds) 秒后重试"
        case let .crash(reason): return (en ? "CRASH (" : "崩溃(") + reason + (en ? ")" : ")")
        case .reinstall: return en ? "reinstall" : "重装"
        case .loadUser: return en ? "read the user's orders" : "读取该用户的订单"
        case let .setFault(fault, arm):
            guard let arm else { return (en ? "disarm " : "关闭故障 ") + fault.rawValue }
            return (en ? "arm " : "启用故障 ") + fault.rawValue + (arm.once ? (en ? " (once)" : "(一次)") : "")
        default: return nil
        }
    }
}
