/// Faults QA arm on purpose: SPEC's catalog. Each is sticky (until disarmed) or one-shot (gone once it fires).
/// What each one is, takes and belongs to is one row of `Fault.rule`; what it says to people is the screens' copy.
public enum Fault: String, Sendable, Equatable, CaseIterable, Comparable {
    // The store
    case paymentsDisabled = "payments-disabled"
    case productsEmpty = "products-empty"
    case productsFail = "products-fail"
    case productsSlow = "products-slow"
    case userCancels = "user-cancels"
    case purchaseFails = "purchase-fails"
    case askToBuy = "ask-to-buy"
    case observerDelayed = "observer-delayed"
    case observerLost = "observer-lost"
    case emptyApplicationUsername = "empty-application-username"
    case receiptEmpty = "receipt-empty"
    case failedThenPurchased = "failed-then-purchased"
    case duplicateCallback = "duplicate-callback"
    case finishNotFound = "finish-not-found"
    case billingFails = "billing-fails"
    case renewalWhileClosed = "renewal-while-closed"
    case refund
    case restoreFails = "restore-fails"
    // The backend
    case backendDown = "backend-down"
    case backendTimeout = "backend-timeout"
    case backend5xx = "backend-5xx"
    case backendSlow = "backend-slow"
    case verifyStatus = "verify-status"
    case verificationPending = "verification-pending"
    case orderMissing = "order-missing"
    case productMismatch = "product-mismatch"
    case ledgerByTransactionId = "ledger-by-transaction-id"
    // The app
    case crashAt = "crash-at"
    case background
    case jailbroken

    /// Whose behaviour the fault changes.
    public enum Party: String, Sendable {
        case store, backend, app
    }

    public var party: Party { rule.party }

    /// The value used when none is given; nil for faults that take none.
    public var defaultValue: String? { rule.defaultValue }

    /// What VALUE means, for `iapsim faults` and the errors of `--fault`.
    public var valueHelp: String? { rule.value.help }

    public static func < (a: Fault, b: Fault) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
