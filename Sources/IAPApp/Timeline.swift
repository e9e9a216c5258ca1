import Foundation
import IAPCore
import IAPUI

/// The inspector's event timeline: each action in words, with the work it led to (the "why" of what follows).
public struct Timeline {
    public private(set) var entries: [InspectorView.Entry] = []
    private let capacity: Int

    public init(capacity: Int = 200) {
        self.capacity = capacity
    }

    public mutating func record(_ action: Action, _ effects: [Effect], at date: Date) {
        guard let text = Self.describe(action) else { return }
        let work = effects.compactMap { Self.describe($0, now: date) }
        entries.append(.init(at: date, text: work.isEmpty ? text : text + " → " + work.joined(separator: ", ")))
        if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
    }

    static func describe(_ action: Action) -> String? {
        switch action {
        case let .launched(canPay, user):
            return "app launched\(user.map { " as \($0)" } ?? "")\(canPay ? "" : ", payments disabled")"
        case let .key(key):
            return "key " + name(of: key)
        case let .productsLoaded(.success(list)):
            return "store: \(list.count) products"
        case .productsLoaded(.failure):
            return "store: product request failed"
        case let .userLoaded(name, snapshot):
            return "client: \(name)'s store read, \(snapshot?.pending.count ?? 0) orders"
        case .accountLoaded:
            return nil
        case let .orderCreated(user, productId, result):
            switch result {
            case let .success(id): return "backend: order \(id) for \(user), \(productId)"
            case let .failure(error): return "backend: no order for \(user) (\(error))"
            }
        case let .storeUpdated(transactions):
            return "store: " + transactions.prefix(3).map { "tx \($0.id) \($0.state.rawValue)\($0.error.map { " (\($0.rawValue))" } ?? "")" }
                .joined(separator: "; ") + (transactions.count > 3 ? "; +\(transactions.count - 3)" : "")
        case let .persisted(order, ok):
            return "client: tx \(order.transactionId) saved for \(order.user), \(order.status.rawValue), \(order.attempts) tries\(ok ? "" : " — WRITE FAILED")"
        case let .verified(order, outcome):
            switch outcome {
            case .valid: return "backend: tx \(order.transactionId) valid, credited"
            case let .invalid(status): return "backend: tx \(order.transactionId) invalid (\(status))"
            case let .retry(reason): return "backend: tx \(order.transactionId) not verified: \(reason)"
            }
        case let .finished(id, _, found):
            return found ? "store: tx \(id) finished" : "store: finish could not find tx \(id)"
        case .tick:
            return "retry timer"
        case let .setFault(fault, arm):
            return arm == nil ? "fault cleared: \(fault.rawValue)" : "fault armed: \(fault.rawValue)\(arm?.once == true ? " (once)" : "")"
        case let .faultFired(fault):
            return "fault fired: \(fault.rawValue)"
        case let .switchUser(name):
            return "account switched to \(name)"
        case .foreground:
            return "app back in the foreground"
        case let .setLanguage(lang):
            return "language \(lang.rawValue)"
        case let .alarm(message):
            return "ALARM: \(message)"
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
        }
    }

    static func describe(_ effect: Effect, now: Date) -> String? {
        switch effect {
        case let .verify(order): "verify \(order.transactionId)"
        case let .persist(order): "save \(order.transactionId)"
        case let .finish(id, _): "finish \(id)"
        case let .remove(id, _): "drop \(id) from the client"
        case let .createOrder(_, productId): "create order (\(productId))"
        case .recordIntent: "note the buyer"
        case let .addPayment(payment): "pay \(payment.productId)"
        case .cancelPayment: "cancel the payment"
        case let .wake(date): "next retry in \(Int(date.timeIntervalSince(now).rounded(.up)))s"
        case let .crash(reason): "CRASH (\(reason))"
        case .reinstall: "reinstall"
        case .loadUser: "read the user's orders"
        default: nil
        }
    }
}
