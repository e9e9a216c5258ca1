/// Settings › Subscriptions: the user's subscriptions; Enter turns the selected one's auto-renew off or on.
public struct SubscriptionsPanel: ListPanel {
    public var context: KeyContext { .subscriptionList }
    public var opens: Command { .manageSubscriptions }
    public var stateId: String { "subscriptions" }

    public func selection(in modal: Modal) -> Int? {
        if case let .subscriptions(selection) = modal { return selection }
        return nil
    }

    public func modal(selection: Int) -> Modal { .subscriptions(selection: selection) }

    public func count(in state: AppState) -> Int { state.subscriptions.count }

    /// Asks the store again as it opens; its key again closes it.
    public func open(_ state: inout AppState) -> [Effect] {
        if case .subscriptions = state.modal { return state.closeOverlay() }
        state.modal = .subscriptions(selection: 0)
        return state.accountRefresh
    }

    public func act(_ command: Command, on selection: Int, in state: inout AppState) -> [Effect]? {
        guard command == .toggleAutoRenew || command == .agreeToPrice else { return nil }
        guard state.subscriptions.indices.contains(selection) else { return [] }
        let chosen = state.subscriptions[selection]
        if command == .agreeToPrice {
            return offers(command, on: selection, in: state) ? state.perform(.agreeToPriceIncrease(originalTransactionId: chosen.originalTransactionId)) : []
        }
        guard offers(command, on: selection, in: state) else { return [] }
        return state.perform(.setAutoRenew(originalTransactionId: chosen.originalTransactionId, on: !chosen.willAutoRenew))
    }

    /// Its row keys only where the selected subscription takes them: only one that has not ended can be cancelled or
    /// resumed (an expired or refunded one is bought again from the list), only a price increase not agreed to yet can
    /// be agreed to. The ways out always, rows or none.
    public func offers(_ command: Command, on selection: Int, in state: AppState) -> Bool {
        let chosen = state.subscriptions.indices.contains(selection) ? state.subscriptions[selection] : nil
        switch command {
        case .toggleAutoRenew: return chosen.map { !$0.isOver } ?? false
        case .agreeToPrice: return chosen?.priceIncrease == .pending
        default: return true
        }
    }
}

extension KeyContext {
    /// Settings › Subscriptions: a list to move in; Enter turns the selected one's auto-renew off or on.
    public static let subscriptionList = KeyContext("subscriptionList")
}

extension Command {
    public static let manageSubscriptions = Command("subscriptions"), toggleAutoRenew = Command("auto-renew")
    /// Agree to the selected subscription's price increase.
    public static let agreeToPrice = Command("agree-to-price")
}
