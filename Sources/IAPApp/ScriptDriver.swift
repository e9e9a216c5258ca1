import AppleVocabulary
import Foundation
import IAPCore

/// What a script does to the running app and asks of the world, as typed calls: keys by what they do, the world's own
/// acts (Apple refunds), and what each party says through its own interface (the store's subscriptions, the backend's
/// account, the client's orders). The script player drives the app only through it.
struct ScriptDriver {
    let session: AppSession

    var state: AppState { session.state }
    var now: Date { session.timers.now }

    // MARK: The keyboard

    /// The key the keymap binds to `command`, pressed.
    func press(_ command: Command) {
        if let key = Keymap.key(for: command) { session.press(key) }
    }

    func press(_ key: Key) { session.press(key) }

    func type(_ text: String) { session.type(text) }

    /// Moves the clock by `seconds`, running what falls due.
    func advance(_ seconds: Double) { session.advance(seconds) }

    /// Waits, on the app's clock, until the product list has answered or `limit` seconds passed.
    func waitForProducts(within limit: Double) -> AppState.ProductsStatus {
        let deadline = now.addingTimeInterval(limit)
        while state.productsStatus == .loading, now < deadline {
            advance(max(min((session.timers.nextDue ?? deadline).timeIntervalSince(now), 1), 0.01))
        }
        return state.productsStatus
    }

    /// Moves the selection to the `offset`th row of the list.
    func select(_ offset: Int) {
        press(Command.first)
        for _ in 0..<offset { press(Command.down) }
    }

    // MARK: The world

    /// The Apple ID the device pays with: the one signed in, else the logged-in user's own; nil when neither.
    var appleId: String? {
        session.parties.store.database.appleId ?? state.user.map { session.parties.store.database.appleId(for: $0) }
    }

    /// An offer code redeemed in the App Store app by `account`.
    func redeem(code: String, account: String) -> Result<StoreTransaction?, StoreError> {
        session.parties.store.redeem(code: code, account: account)
    }

    /// Apple refunds a charge (the latest of `account`'s when no id is given): the app sees the new balance when it looks.
    func appleRefunds(transactionId: String?, account: String?, because reason: ConsumptionRequestReason) -> String? {
        guard let refunded = session.parties.store.refund(transactionId: transactionId, account: account, because: reason) else { return nil }
        session.runtime.send(.foreground)
        return refunded
    }

    /// Apple declines a refund request, or reverses a refund it granted (the latest of `account`'s charges it can decide
    /// on when no id is given).
    func appleDecidesRefund(_ decision: Script.RefundDecision, transactionId: String?, account: String?, because reason: ConsumptionRequestReason)
        -> String? {
        let store = session.parties.store
        guard let decided = decision == .decline ? store.declineRefund(transactionId: transactionId, account: account, because: reason)
            : store.reverseRefund(transactionId: transactionId, account: account) else { return nil }
        session.runtime.send(.foreground)
        return decided
    }

    /// The team raises a subscription's price for its subscribers: the app sees the question when it looks.
    func teamRaisesPrice(of productId: String) -> Int {
        let asked = session.parties.store.raisePrice(productId: productId)
        session.runtime.send(.foreground)
        return asked
    }

    // MARK: What the parties say

    /// The store's subscription to `productId` of `account`, as StoreKit reports it.
    func subscription(_ productId: String, of account: String) -> SubscriptionStatus.State? {
        session.parties.store.subscriptions(account: account).first { $0.productId == productId }?.state
    }

    /// The backend's account of `user`: what it grants and their coins.
    func account(of user: String) throws -> Account { try session.parties.backend.accountNow(user: user) }

    func credits(of user: String) throws -> Int { try session.parties.backend.creditCount(user: user) }

    /// The client's orders of `user` still waiting to be verified.
    func pendingOrders(of user: String) throws -> Int { try session.parties.vault.orderCount(user: user) }

    /// The store queue's unfinished transactions.
    func unfinishedTransactions() -> Int { session.parties.store.unfinished(limit: 0).total }
}
