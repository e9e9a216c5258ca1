import Foundation

/// What Apple's side tells the app's server when something happens to a purchase without the app (App Store Server
/// Notifications V2's types and subtypes): how the backend keeps entitlement by expiry date and revokes refunds.
public struct StoreNotification: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        case subscribed = "SUBSCRIBED"
        case didRenew = "DID_RENEW"
        case didFailToRenew = "DID_FAIL_TO_RENEW"
        case gracePeriodExpired = "GRACE_PERIOD_EXPIRED"
        case expired = "EXPIRED"
        case refund = "REFUND"
        case didChangeRenewalStatus = "DID_CHANGE_RENEWAL_STATUS"
        case didChangeRenewalPref = "DID_CHANGE_RENEWAL_PREF"
    }

    public enum Subtype: String, Sendable, Equatable {
        case initialBuy = "INITIAL_BUY"
        case resubscribe = "RESUBSCRIBE"
        case billingRecovery = "BILLING_RECOVERY"
        case gracePeriod = "GRACE_PERIOD"
        case voluntary = "VOLUNTARY"
        case billingRetry = "BILLING_RETRY"
        case autoRenewEnabled = "AUTO_RENEW_ENABLED"
        case autoRenewDisabled = "AUTO_RENEW_DISABLED"
        case upgrade = "UPGRADE"
        case downgrade = "DOWNGRADE"
    }

    public let kind: Kind
    public let subtype: Subtype?
    public let account: String?
    public let productId: String
    public let transactionId: String?
    public let originalTransactionId: String
    /// The subscription's current period end (its entitlement, with `graceUntil`).
    public let expiresDate: Date?
    /// The end of the grace period while a renewal is retried.
    public let graceUntil: Date?
    public let date: Date

    public init(_ kind: Kind, _ subtype: Subtype? = nil, account: String?, productId: String, transactionId: String?,
                originalTransactionId: String, expiresDate: Date? = nil, graceUntil: Date? = nil, date: Date) {
        self.kind = kind
        self.subtype = subtype
        self.account = account
        self.productId = productId
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.expiresDate = expiresDate
        self.graceUntil = graceUntil
        self.date = date
    }
}
