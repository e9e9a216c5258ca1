import Foundation
import IAPCore

/// Which of Apple's two `verifyReceipt` endpoints answers.
public enum AppleEnvironment: String, Sendable, Codable {
    case production = "Production"
    case sandbox = "Sandbox"
}

/// One subscription's renewal as `verifyReceipt` reports it in `pending_renewal_info`, with Apple's field names.
public struct PendingRenewalInfo: Codable, Sendable, Equatable {
    public let auto_renew_product_id: String
    /// "1" renews at the period's end, "0" was cancelled.
    public let auto_renew_status: String
    public let original_transaction_id: String
    public let product_id: String
    /// Why it expired: "1" cancelled, "2" billing error, "4" product no longer available.
    public let expiration_intent: String?
    public let is_in_billing_retry_period: String?
    public let grace_period_expires_date_ms: String?
}

/// `verifyReceipt`'s answer, with Apple's field names.
public struct VerifyReceiptResponse: Codable, Sendable, Equatable {
    public let status: Int
    public var environment: String?
    public var receipt: Receipt?
    /// Every subscription transaction, newest first.
    public var latest_receipt_info: [Receipt.Entry]?
    public var pending_renewal_info: [PendingRenewalInfo]?

    public init(status: Int, environment: String? = nil, receipt: Receipt? = nil, latest_receipt_info: [Receipt.Entry]? = nil,
                pending_renewal_info: [PendingRenewalInfo]? = nil) {
        self.status = status
        self.environment = environment
        self.receipt = receipt
        self.latest_receipt_info = latest_receipt_info
        self.pending_renewal_info = pending_renewal_info
    }
}

/// Apple's `verifyReceipt` service: checks the store's signature, then answers with the receipt and, for the
/// subscriptions in it, their latest transactions and what their renewal will do.
public final class AppleReceiptService {
    private let database: StoreDatabase
    private let publicKey: Data
    /// The last receipt checked and what its check found: a backlog of orders is verified with one receipt, whose
    /// signature need not be checked once per order.
    private var lastCheck: (receipt: String, result: ReceiptCheck)?

    init(database: StoreDatabase, publicKey: Data) {
        self.database = database
        self.publicKey = publicKey
    }

    public func verify(_ receiptData: String, at environment: AppleEnvironment) -> VerifyReceiptResponse {
        switch check(receiptData) {
        case .malformed: return VerifyReceiptResponse(status: ReceiptStatus.malformed)
        case .notAuthenticated: return VerifyReceiptResponse(status: ReceiptStatus.notAuthenticated)
        case let .valid(receipt):
            guard receipt.bundle_id == Receipt.bundleId else { return VerifyReceiptResponse(status: ReceiptStatus.notAuthenticated) }
            guard receipt.environment == environment.rawValue else {
                return VerifyReceiptResponse(status: environment == .production ? ReceiptStatus.sandboxReceiptInProduction
                                                                                 : ReceiptStatus.productionReceiptInSandbox)
            }
            let subscriptions = receipt.in_app.filter { $0.subscription_group_identifier != nil }
            guard !subscriptions.isEmpty else { return VerifyReceiptResponse(status: ReceiptStatus.ok, environment: environment.rawValue, receipt: receipt) }
            let chains = Set(subscriptions.map(\.original_transaction_id))
            let renewals = ((try? database.subscriptionRecords(originals: chains)) ?? []).map { chain in
                PendingRenewalInfo(auto_renew_product_id: chain.renewsAs, auto_renew_status: chain.autoRenew ? "1" : "0",
                                   original_transaction_id: chain.originalTransactionId, product_id: chain.productId,
                                   expiration_intent: chain.expirationIntent.map(String.init),
                                   is_in_billing_retry_period: chain.expirationIntent == nil ? (chain.retryUntil != nil ? "1" : "0") : nil,
                                   grace_period_expires_date_ms: chain.retryUntil.map(Receipt.Entry.milliseconds))
            }
            return VerifyReceiptResponse(status: ReceiptStatus.ok, environment: environment.rawValue, receipt: receipt,
                                         latest_receipt_info: subscriptions.reversed(), pending_renewal_info: renewals)
        }
    }

    private func check(_ receipt: String) -> ReceiptCheck {
        if let lastCheck, lastCheck.receipt == receipt { return lastCheck.result }
        let result = ReceiptVerifier.check(receipt, publicKey: publicKey)
        lastCheck = (receipt, result)
        return result
    }
}
