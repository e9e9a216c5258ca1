import Foundation

/// What Apple's side tells the app's server when something happens to a purchase without the app (App Store Server
/// Notifications V2's types and subtypes): how the backend keeps entitlement by expiry date and revokes refunds.
/// Codable: the store's outbox keeps each one whole, so that a delivery a kill interrupted is made at the next launch.
public struct StoreNotification: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Equatable, Codable, CaseIterable {
        /// A consumable, non-consumable or non-renewing subscription was charged.
        case oneTimeCharge = "ONE_TIME_CHARGE"
        case subscribed = "SUBSCRIBED"
        /// A subscription offer redeemed (an offer code, a promotional or win-back offer): a new, resumed or changed chain,
        /// or the next renewals of the one the customer has.
        case offerRedeemed = "OFFER_REDEEMED"
        case didRenew = "DID_RENEW"
        case didFailToRenew = "DID_FAIL_TO_RENEW"
        case gracePeriodExpired = "GRACE_PERIOD_EXPIRED"
        case expired = "EXPIRED"
        case refund = "REFUND"
        /// A purchase a family member had through Family Sharing is theirs no longer (refunded, or one of them left).
        case revoke = "REVOKE"
        /// Apple turned the customer's refund request down: the purchase stands.
        case refundDeclined = "REFUND_DECLINED"
        /// Apple took back a refund it had granted (a dispute went the other way): what the refund revoked is owed again.
        case refundReversed = "REFUND_REVERSED"
        case didChangeRenewalStatus = "DID_CHANGE_RENEWAL_STATUS"
        case didChangeRenewalPref = "DID_CHANGE_RENEWAL_PREF"
        /// Apple asks the app's server how much of a consumable whose refund the customer asked for was used.
        case consumptionRequest = "CONSUMPTION_REQUEST"
        /// A team's server extended one subscription's renewal date (alone, or as one of every active subscriber).
        case renewalExtended = "RENEWAL_EXTENDED"
        /// Extend for All Active Subscribers: its summary once done, or one subscription it could not extend.
        case renewalExtension = "RENEWAL_EXTENSION"
        /// The team raised a subscription's price for its subscribers: PENDING until the customer agrees, then ACCEPTED.
        case priceIncrease = "PRICE_INCREASE"
        /// Asked for through the App Store Server API, to check that notifications reach the server.
        case test = "TEST"
    }

    public enum Subtype: String, Sendable, Equatable, Codable, CaseIterable {
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
        case summary = "SUMMARY"
        case pending = "PENDING"
        case accepted = "ACCEPTED"
        /// EXPIRED's: the customer did not agree to a price increase before the renewal.
        case priceIncrease = "PRICE_INCREASE"
        case failure = "FAILURE"
    }

    /// Apple's `summary` of RENEWAL_EXTENSION / SUMMARY: what Extend for All Active Subscribers did, in place of `data`.
    public struct ExtensionSummary: Sendable, Equatable, Codable {
        public let productId: String
        public let requestIdentifier: String
        public let storefrontCountryCodes: [String]
        public let succeededCount: Int
        public let failedCount: Int

        public init(productId: String, requestIdentifier: String, storefrontCountryCodes: [String], succeededCount: Int, failedCount: Int) {
            self.productId = productId
            self.requestIdentifier = requestIdentifier
            self.storefrontCountryCodes = storefrontCountryCodes
            self.succeededCount = succeededCount
            self.failedCount = failedCount
        }
    }

    /// Apple's `notificationUUID`: the same on every retry of this notification, so a server applies it once. Drawn when
    /// the store writes the notification into its outbox (empty until then), unless given.
    public internal(set) var uuid: String
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
    /// RENEWAL_EXTENSION / SUMMARY's alone: it is about no one purchase.
    public let summary: ExtensionSummary?
    /// The customer's reason for the refund request a REFUND, REFUND_DECLINED or CONSUMPTION_REQUEST answers; Apple
    /// signs it in CONSUMPTION_REQUEST's data only.
    public var refundRequestReason: ConsumptionRequestReason?

    public init(_ kind: Kind, _ subtype: Subtype? = nil, account: String?, productId: String, transactionId: String?,
                originalTransactionId: String, webOrderLineItemId: String? = nil, expiresDate: Date? = nil, graceUntil: Date? = nil,
                date: Date, summary: ExtensionSummary? = nil, uuid: String = "") {
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
        self.summary = summary
    }
}

extension StoreNotification {
    /// Every notification type Apple has, by name, with the subtypes it comes with: iapsim's own, and those it never
    /// sends (Advanced Commerce, consent, external purchases, a product no longer for sale), which a server may still ask
    /// Notification History for.
    /// Notification History refuses a subtype beside a type that never comes with it (InvalidNotificationTypeError).
    public static let appleTypes: [String: Set<String>] = [
        "SUBSCRIBED": ["INITIAL_BUY", "RESUBSCRIBE"], "OFFER_REDEEMED": ["INITIAL_BUY", "RESUBSCRIBE", "UPGRADE", "DOWNGRADE"],
        "DID_CHANGE_RENEWAL_PREF": ["UPGRADE", "DOWNGRADE"], "DID_CHANGE_RENEWAL_STATUS": ["AUTO_RENEW_ENABLED", "AUTO_RENEW_DISABLED"],
        "DID_RENEW": ["BILLING_RECOVERY"], "DID_FAIL_TO_RENEW": ["GRACE_PERIOD"],
        "EXPIRED": ["VOLUNTARY", "BILLING_RETRY", "PRICE_INCREASE", "PRODUCT_NOT_FOR_SALE"], "PRICE_INCREASE": ["PENDING", "ACCEPTED"],
        "RENEWAL_EXTENSION": ["SUMMARY", "FAILURE"], "EXTERNAL_PURCHASE_TOKEN": ["UNREPORTED"],
        "ONE_TIME_CHARGE": [], "GRACE_PERIOD_EXPIRED": [], "REFUND": [], "REFUND_DECLINED": [], "REFUND_REVERSED": [], "REVOKE": [],
        "CONSUMPTION_REQUEST": [], "RENEWAL_EXTENDED": [], "TEST": [], "METADATA_UPDATE": [], "MIGRATION": [], "PRICE_CHANGE": [],
        "RESCIND_CONSENT": [],
    ]

    /// Every subtype Apple has.
    public static let appleSubtypes = Set(appleTypes.values.joined())

    /// The notification under `uuid`, as the outbox writes it.
    public func named(_ uuid: String) -> StoreNotification {
        var named = self
        named.uuid = uuid
        return named
    }

    /// Apple's TEST notification: about no purchase (its product and chain are empty).
    public static func test(at date: Date, uuid: String) -> StoreNotification {
        StoreNotification(.test, account: nil, productId: "", transactionId: nil, originalTransactionId: "", date: date, uuid: uuid)
    }

    /// RENEWAL_EXTENSION / SUMMARY: about a product's subscribers, not one chain.
    public static func extensionSummary(_ summary: ExtensionSummary, at date: Date) -> StoreNotification {
        StoreNotification(.renewalExtension, .summary, account: nil, productId: summary.productId, transactionId: nil, originalTransactionId: "",
                          date: date, summary: summary)
    }

    /// What the built-in backend acts on (a refund, and what moves a subscription's entitlement); the rest it learns
    /// from the app's verification or not at all, so the store hands it only these.
    public var concernsBuiltInBackend: Bool {
        switch kind {
        case .refund, .revoke, .refundReversed, .subscribed, .offerRedeemed, .didRenew, .didChangeRenewalPref, .didFailToRenew, .gracePeriodExpired, .expired,
             .renewalExtended: true
        case .oneTimeCharge, .didChangeRenewalStatus, .consumptionRequest, .refundDeclined, .renewalExtension, .priceIncrease, .test: false
        }
    }
}
