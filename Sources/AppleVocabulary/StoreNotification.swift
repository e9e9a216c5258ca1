import Foundation

/// What Apple's side tells the app's server when something happens to a purchase without the app (App Store Server
/// Notifications V2's types and subtypes): how the backend keeps entitlement by expiry date and revokes refunds.
/// Codable: the store's outbox keeps each one whole, so that a delivery a kill interrupted is made at the next launch.
public struct StoreNotification: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Equatable, Codable {
        /// A consumable, non-consumable or non-renewing subscription was charged.
        case oneTimeCharge = "ONE_TIME_CHARGE"
        case subscribed = "SUBSCRIBED"
        case didRenew = "DID_RENEW"
        case didFailToRenew = "DID_FAIL_TO_RENEW"
        case gracePeriodExpired = "GRACE_PERIOD_EXPIRED"
        case expired = "EXPIRED"
        case refund = "REFUND"
        /// A purchase a family member had through Family Sharing is theirs no longer (refunded, or one of them left).
        case revoke = "REVOKE"
        case didChangeRenewalStatus = "DID_CHANGE_RENEWAL_STATUS"
        case didChangeRenewalPref = "DID_CHANGE_RENEWAL_PREF"
        /// Apple asks the app's server how much of a consumable whose refund the customer asked for was used.
        case consumptionRequest = "CONSUMPTION_REQUEST"
        /// Asked for through the App Store Server API, to check that notifications reach the server.
        case test = "TEST"
    }

    public enum Subtype: String, Sendable, Equatable, Codable {
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

    /// Apple's `notificationUUID`: the same on every retry of this notification, so a server applies it once.
    public let uuid: String
    public let kind: Kind
    public let subtype: Subtype?
    public let account: String?
    public let productId: String
    public let transactionId: String?
    public let originalTransactionId: String
    /// A subscription charge's web order line item: what a server credits it under, once, whichever of its transactions
    /// (the charge, a restore of it) it hears of first.
    public let webOrderLineItemId: String?
    /// The subscription's current period end (its entitlement, with `graceUntil`).
    public let expiresDate: Date?
    /// The end of the grace period while a renewal is retried.
    public let graceUntil: Date?
    public let date: Date

    public init(_ kind: Kind, _ subtype: Subtype? = nil, account: String?, productId: String, transactionId: String?,
                originalTransactionId: String, webOrderLineItemId: String? = nil, expiresDate: Date? = nil, graceUntil: Date? = nil,
                date: Date, uuid: String = UUID().uuidString.lowercased()) {
        self.uuid = uuid
        self.kind = kind
        self.subtype = subtype
        self.account = account
        self.productId = productId
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.webOrderLineItemId = webOrderLineItemId
        self.expiresDate = expiresDate
        self.graceUntil = graceUntil
        self.date = date
    }
}

extension StoreNotification {
    /// Apple's TEST notification: about no purchase (its product and chain are empty).
    public static func test(at date: Date, uuid: String) -> StoreNotification {
        StoreNotification(.test, account: nil, productId: "", transactionId: nil, originalTransactionId: "", date: date, uuid: uuid)
    }

    /// What the built-in backend acts on (a refund, and what moves a subscription's entitlement); the rest it learns
    /// from the app's verification or not at all, so the store hands it only these.
    public var concernsBuiltInBackend: Bool {
        switch kind {
        case .refund, .revoke, .subscribed, .didRenew, .didChangeRenewalPref, .didFailToRenew, .gracePeriodExpired, .expired: true
        case .oneTimeCharge, .didChangeRenewalStatus, .consumptionRequest, .test: false
        }
    }
}
