import Foundation

/// Work the reducer asks the runtime to do. Each answers, when it does, with an `Action`.
public enum Effect: Sendable, Equatable {
    case requestProducts
    case loadUser(String)
    case setLastUser(String?)
    /// Read the page of the user's backlog that follows `after` in queue order; answers `.pendingPageLoaded`.
    case loadPendingPage(user: String, after: PendingOrder?)
    /// The user's subscriptions as the store says them now (StoreKit's status, on the device); answers `.subscriptionsLoaded`.
    case readSubscriptions(String)
    /// The subscriptions, then what the backend grants the user; answers `.subscriptionsLoaded` and `.accountLoaded`.
    case refreshAccount(String)
    /// Apple refunds the account's latest transaction, a paid one first (support's key in the inspector); answers
    /// `.refundAnswered`.
    case refund(account: String)
    /// Settings › Subscriptions, on the store's side.
    case setAutoRenew(Bool, originalTransactionId: String)
    /// The user agrees to a subscription's price increase, on the store's side.
    case agreeToPriceIncrease(originalTransactionId: String)
    case createOrder(user: String, productId: String, storeKit: StoreKitMode = .one)
    /// StoreKit 2: the app user's `appAccountToken`, which the backend creates once and keeps; answers `.appAccountTokenFetched`.
    case fetchAppAccountToken(user: String)
    /// Answers `.intentRecorded`.
    case recordIntent(user: String, productId: String, orderId: String?, appAccountToken: UUID?, at: Date)
    case closeIntent(Int64)
    case markIntentInterrupted(Int64)
    /// Ask the app's server to sign the promotional offer for the payment about to be added; answers `.offerSigned`.
    case signOffer(user: String, productId: String, offerId: String, applicationUsername: String?, storeKit: StoreKitMode)
    case addPayment(Payment)
    /// StoreKit's redemption sheet redeems the code for the Apple ID; answers `.codeRedeemed`.
    case redeemCode(String, account: String)
    /// Restore Purchases for the store account; answers `.restoreAnswered` (its transactions reach the observer first).
    case restorePurchases(account: String)
    /// StoreKit 2's Restore for the store account; answers `.restoreAnswered` with its current entitlements.
    case syncAppStore(account: String)
    /// StoreKit 2: send one of the entitlements `AppStore.sync()` brought to the app's server for the user who restored
    /// (its signed transaction, claiming it under the server's restore policy); answers `.entitlementSent`.
    case sendEntitlement(transactionId: String, user: String)
    /// Answers `.cancelAnswered`.
    case cancelPayment(transactionId: String)
    /// Look at the store's unfinished transactions again after `after` seconds (a callback may have been lost);
    /// answers `.storeUpdated`, a batch at a time.
    case readStoreQueue(after: Double)
    /// Support looks up in Apple's records which account paid for each transaction; answers `.assignToBuyer` for each.
    case lookUpPayers([String])
    /// Write the order (insert or update, closing the intent it was claimed by) and read it back; answers `.persisted`.
    case persist(PendingOrder, closingIntent: Int64?)
    /// Resolve the order id, fetch the receipt, ask the backend; answers `.verified`.
    case verify(PendingOrder)
    /// Answers `.finished`; `user` names whose order to remove afterwards.
    case finish(transactionId: String, user: String?)
    case remove(transactionId: String, user: String)
    case wake(at: Date)
    case setFault(Fault, FaultArm?)
    /// A one-shot fault the core acted on itself (payments-disabled refusing a purchase) is spent on the board.
    case spendFault(Fault)
    /// Uploads alarms to the backend (seed 002).
    case reportAlarms([Device.RaisedAlarm])
    /// Support settles the order by hand on the backend (B5): its next verification tells the client to finish it.
    case compensate(orderId: String)
    /// The app dies here, as with `kill -9` (crash-at, or "crash now" from the panel).
    case crash(reason: Localized)
    /// Delete the app and install it again: the sandbox goes, the keychain and the store's queue stay (C11).
    case reinstall
    /// Set up a shipped scenario on its own data and hand it over (the host does it: it needs files and a clock).
    case startScenario(String)
    /// Read the shipped scenarios (only when the list is opened: parsing them is a quarter of the start-up time).
    case listScenarios
    /// Read every device's files for the devices panel.
    case listDevices
    /// Sign the Apple ID in on the device's store; answers `.appleIdSignedIn`.
    case signInAppleId(String)
    /// Move the app's clock to the next scheduled event.
    case skipTime
    case quit
}

extension Effect {
    /// The steps `crash-at` can kill the app before, in the order a purchase takes them.
    public static let crashPoints = ["create-order", "record-intent", "add-payment", "persist", "verify", "finish", "remove"]

    public var crashPoint: String? {
        switch self {
        case .createOrder: "create-order"
        case .recordIntent: "record-intent"
        case .addPayment: "add-payment"
        case .persist: "persist"
        case .verify: "verify"
        case .finish: "finish"
        case .remove: "remove"
        default: nil
        }
    }
}
