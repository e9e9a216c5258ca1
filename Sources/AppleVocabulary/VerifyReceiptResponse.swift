import Foundation
import IAPCore

/// One subscription's renewal as `verifyReceipt` reports it in `pending_renewal_info`, with Apple's field names.
public struct PendingRenewalInfo: Codable, Sendable, Equatable {
    public let auto_renew_product_id: String
    /// "1" renews at the period's end, "0" was cancelled.
    public let auto_renew_status: String
    public let original_transaction_id: String
    public let product_id: String
    /// Why it expired: "1" cancelled, "2" billing error, "3" a price increase not agreed to, "4" product no longer available.
    public let expiration_intent: String?
    /// "1" while Apple retries a failed renewal (its grace period included), "0" once it stopped; absent when no renewal
    /// failed.
    public let is_in_billing_retry_period: String?
    public let grace_period_expires_date_ms: String?
    /// The grace period's end in Apple's two date strings, as every `_ms` date of verifyReceipt's comes.
    public private(set) var grace_period_expires_date: String?
    public private(set) var grace_period_expires_date_pst: String?
    /// While a price increase waits for the renewal: "0" the customer has not agreed yet, "1" agreed; absent otherwise.
    public var price_consent_status: String?

    public init(auto_renew_product_id: String, auto_renew_status: String, original_transaction_id: String, product_id: String,
                expiration_intent: String?, is_in_billing_retry_period: String?, grace_period_expires_date_ms: String?,
                price_consent_status: String? = nil) {
        self.price_consent_status = price_consent_status
        self.auto_renew_product_id = auto_renew_product_id
        self.auto_renew_status = auto_renew_status
        self.original_transaction_id = original_transaction_id
        self.product_id = product_id
        self.expiration_intent = expiration_intent
        self.is_in_billing_retry_period = is_in_billing_retry_period
        self.grace_period_expires_date_ms = grace_period_expires_date_ms
        if let grace = Receipt.Entry.date(grace_period_expires_date_ms) {
            (grace_period_expires_date, grace_period_expires_date_pst) = (AppleDate.gmt(grace), AppleDate.pst(grace))
        }
    }

    /// Apple's `is_in_billing_retry_period`, the one place it is derived: "1" while the App Store retries the charge,
    /// "0" after it stopped (the subscription expired for a billing error, `expiration_intent` 2); absent otherwise, as
    /// Apple leaves it out of a renewal that never failed.
    public static func billingRetryFlag(retrying: Bool, expirationIntent: Int?) -> String? {
        if retrying { return "1" }
        return expirationIntent == ExpirationIntent.billingError ? "0" : nil
    }

    /// Apple's `expiration_intent`: why the subscription ended, once it did; and 2, a billing error, from the renewal
    /// that could not be charged on, while Apple still retries (grace period included), as Apple answers then.
    public static func expirationIntent(retrying: Bool, ended: Int?) -> String? {
        (ended ?? (retrying ? ExpirationIntent.billingError : nil)).map(String.init)
    }
}

/// Apple's `expiration_intent` values.
public enum ExpirationIntent {
    public static let cancelled = 1
    public static let billingError = 2
    /// The customer did not agree to a price increase before the renewal.
    public static let priceIncrease = 3
    public static let productUnavailable = 4
}

/// The decoded receipt in a `verifyReceipt` answer, with Apple's field names: what the signed receipt says, and what
/// Apple adds when it answers (the request's date, the receipt's type).
public struct AppleReceipt: Codable, Sendable, Equatable {
    /// "ProductionSandbox" from the sandbox, "Production" from production.
    public let receipt_type: String
    public let adam_id: Int
    public let app_item_id: Int
    public let bundle_id: String
    public let application_version: String
    public let original_application_version: String
    public let receipt_creation_date: String?
    public let receipt_creation_date_ms: String?
    public let receipt_creation_date_pst: String?
    public let request_date: String
    public let request_date_ms: String
    public let request_date_pst: String
    public let version_external_identifier: Int
    public let in_app: [Receipt.Entry]

    public init(_ receipt: Receipt, at environment: AppleEnvironment, requested: Date) {
        receipt_type = environment == .sandbox ? "ProductionSandbox" : "Production"
        // The sandbox's app has no App Store ids.
        adam_id = 0
        app_item_id = 0
        version_external_identifier = 0
        bundle_id = receipt.bundle_id
        application_version = Receipt.applicationVersion
        original_application_version = Receipt.originalApplicationVersion
        let created = receipt.receipt_creation_date_ms.flatMap(Double.init).map { Date(timeIntervalSince1970: $0 / 1000) }
        receipt_creation_date = created.map(AppleDate.gmt)
        receipt_creation_date_ms = receipt.receipt_creation_date_ms
        receipt_creation_date_pst = created.map(AppleDate.pst)
        request_date = AppleDate.gmt(requested)
        request_date_ms = Receipt.Entry.milliseconds(requested)
        request_date_pst = AppleDate.pst(requested)
        in_app = receipt.in_app.map(\.dated)
    }
}

/// `verifyReceipt`'s answer, with Apple's key names.
public struct VerifyReceiptResponse: Codable, Sendable, Equatable {
    public let status: Int
    public var environment: String?
    public var receipt: AppleReceipt?
    /// The receipt's subscription transactions, newest first (only the latest of each subscription when the request
    /// excluded old transactions); present only when the request carried the shared secret.
    public var latest_receipt_info: [Receipt.Entry]?
    /// The base64 receipt, for a receipt with subscriptions.
    public var latest_receipt: String?
    public var pending_renewal_info: [PendingRenewalInfo]?
    /// True for the statuses worth asking again (21005, 21009, 21100–21199); absent otherwise.
    public var is_retryable: Bool?

    public init(status: Int, environment: String? = nil, receipt: AppleReceipt? = nil, latest_receipt_info: [Receipt.Entry]? = nil,
                latest_receipt: String? = nil, pending_renewal_info: [PendingRenewalInfo]? = nil) {
        self.status = status
        self.environment = environment
        self.receipt = receipt
        self.latest_receipt_info = latest_receipt_info
        self.latest_receipt = latest_receipt
        self.pending_renewal_info = pending_renewal_info
        is_retryable = ReceiptStatus.isRetryable(status) ? true : nil
    }

    enum CodingKeys: String, CodingKey {
        case status, environment, receipt, latest_receipt_info, latest_receipt, pending_renewal_info
        case is_retryable = "is-retryable"
    }
}
