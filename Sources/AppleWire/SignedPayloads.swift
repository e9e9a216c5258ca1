import AppleVocabulary
import Foundation
import IAPCore
import JWTKit

/// A signed transaction is what JWTKit signs and verifies.
extension JWSTransaction: JWTPayload {
    public func verify(using algorithm: some JWTAlgorithm) throws {}
}

/// Apple's `JWSRenewalInfoDecodedPayload`: what a subscription's next renewal will do.
public struct JWSRenewalInfo: JWTPayload, Equatable {
    public var originalTransactionId: String
    public var autoRenewProductId: String
    public var productId: String
    /// 1 renews at the period's end, 0 was turned off.
    public var autoRenewStatus: Int
    /// 1 cancelled, 2 billing error, 4 product no longer available.
    public var expirationIntent: Int?
    public var isInBillingRetryPeriod: Bool?
    public var gracePeriodExpiresDate: Int64?
    public var renewalDate: Int64?
    /// While a price increase waits for the renewal: 0 not agreed to yet, 1 agreed.
    public var priceIncreaseStatus: Int?
    /// The win-back offers the customer may take, best first; absent when none.
    public var eligibleWinBackOfferIds: [String]?
    /// Inside a 12-month commitment: the plan the months renew on, and what happens at the commitment's end.
    public var renewalBillingPlanType: String?
    public var commitmentInfo: CommitmentInfo?
    /// What the next renewal will charge, in thousandths of `currency` (ISO 4217).
    public var renewalPrice: Int64?
    public var currency: String?
    public var signedDate: Int64
    public var environment: String

    /// Apple's `RenewalCommitmentInfo`.
    public struct CommitmentInfo: Codable, Equatable, Sendable {
        public var commitmentAutoRenewProductId: String
        /// 1: another commitment starts at the end; 0: the subscription ends there.
        public var commitmentAutoRenewStatus: Int
        public var commitmentRenewalBillingPlanType: String
        public var commitmentRenewalDate: Int64
        /// In thousandths of the currency.
        public var commitmentRenewalPrice: Int64?
    }

    public func verify(using algorithm: some JWTAlgorithm) throws {}

    /// `commitmentEndsAt`, `commitmentPrice`: a 12-month commitment's end and whole price, while the chain is inside one.
    public init(_ renewal: PendingRenewalInfo, expires: Date?, eligibleWinBackOfferIds: [String] = [], commitmentEndsAt: Date? = nil,
                commitmentPrice: Int64? = nil, signedAt signed: Date) {
        self.eligibleWinBackOfferIds = eligibleWinBackOfferIds.isEmpty ? nil : eligibleWinBackOfferIds
        if let commitmentEndsAt {
            // Whether another commitment starts at the end is the renewal's own auto-renew status.
            renewalBillingPlanType = BillingPlan.monthly.rawValue
            commitmentInfo = CommitmentInfo(commitmentAutoRenewProductId: renewal.auto_renew_product_id,
                                            commitmentAutoRenewStatus: Int(renewal.auto_renew_status) ?? 0,
                                            commitmentRenewalBillingPlanType: BillingPlan.monthly.rawValue,
                                            commitmentRenewalDate: AppleDate.milliseconds(commitmentEndsAt), commitmentRenewalPrice: commitmentPrice)
        }
        originalTransactionId = renewal.original_transaction_id
        autoRenewProductId = renewal.auto_renew_product_id
        productId = renewal.product_id
        autoRenewStatus = Int(renewal.auto_renew_status) ?? 0
        expirationIntent = renewal.expiration_intent.flatMap(Int.init)
        isInBillingRetryPeriod = renewal.is_in_billing_retry_period.map { $0 == "1" }
        gracePeriodExpiresDate = renewal.grace_period_expires_date_ms.flatMap(Int64.init)
        renewalDate = autoRenewStatus == 1 ? expires.map(AppleDate.milliseconds) : nil
        priceIncreaseStatus = renewal.price_consent_status.flatMap(Int.init)
        signedDate = AppleDate.milliseconds(signed)
        environment = AppleSandbox.environment
    }
}

extension JWSRenewalInfo {
    /// A chain's renewal info as Apple's server reports it.
    public init(_ chain: AppleSubscription, signedAt signed: Date) {
        self.init(chain.renewal, expires: chain.expires, eligibleWinBackOfferIds: chain.eligibleWinBackOfferIds,
                  commitmentEndsAt: chain.commitmentEndsAt, commitmentPrice: chain.latest.product?.subscription?.monthlyCommitment?.totalMilliunits,
                  signedAt: signed)
        renewalPrice = chain.renewalPrice?.milliunits
        currency = chain.renewalPrice?.currency
    }
}

/// Apple's `AppTransaction` (`JWSAppTransactionDecodedPayload`): the customer's download of the app.
public struct JWSAppTransaction: JWTPayload, Equatable {
    public var receiptType: String
    public var bundleId: String
    public var applicationVersion: String
    public var originalApplicationVersion: String
    public var receiptCreationDate: Int64
    public var originalPurchaseDate: Int64
    public var appTransactionId: String
    public var originalPlatform: String
    public var signedDate: Int64

    public func verify(using algorithm: some JWTAlgorithm) throws {}

    public init(_ download: AppleAppTransaction, signedAt signed: Date) {
        receiptType = AppleSandbox.environment
        bundleId = Receipt.bundleId
        applicationVersion = AppleSandbox.bundleVersion
        // Apple: in the sandbox it is always 1.0, as the receipt's original_application_version is.
        originalApplicationVersion = Receipt.originalApplicationVersion
        receiptCreationDate = AppleDate.milliseconds(signed)
        originalPurchaseDate = AppleDate.milliseconds(download.originalPurchaseDate)
        appTransactionId = download.appTransactionId
        originalPlatform = "iOS"
        signedDate = receiptCreationDate
    }
}

/// Apple's `ResponseBodyV2DecodedPayload`: one App Store Server Notification V2.
public struct NotificationPayload: JWTPayload, Equatable {
    public struct Data: Codable, Sendable, Equatable {
        public var bundleId: String
        public var bundleVersion: String
        public var environment: String
        public var signedTransactionInfo: String?
        public var signedRenewalInfo: String?
        /// The subscription's status: 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked.
        public var status: Int?
        /// CONSUMPTION_REQUEST's: the reason the customer gave when asking for the refund.
        public var consumptionRequestReason: String?

        /// For this app (`Receipt.bundleId`) in iapsim's one environment.
        public init(signedTransactionInfo: String?, signedRenewalInfo: String?, status: Int?, consumptionRequestReason: String? = nil) {
            bundleId = Receipt.bundleId
            bundleVersion = AppleSandbox.bundleVersion
            environment = AppleSandbox.environment
            self.signedTransactionInfo = signedTransactionInfo
            self.signedRenewalInfo = signedRenewalInfo
            self.status = status
            self.consumptionRequestReason = consumptionRequestReason
        }
    }

    /// Apple's `Summary`: RENEWAL_EXTENSION / SUMMARY carries it in place of `data`.
    public struct Summary: Codable, Sendable, Equatable {
        public var bundleId: String
        public var environment: String
        public var productId: String
        public var requestIdentifier: String
        public var storefrontCountryCodes: [String]
        public var succeededCount: Int
        public var failedCount: Int

        public init(_ summary: StoreNotification.ExtensionSummary) {
            bundleId = Receipt.bundleId
            environment = AppleSandbox.environment
            productId = summary.productId
            requestIdentifier = summary.requestIdentifier
            storefrontCountryCodes = summary.storefrontCountryCodes
            succeededCount = summary.succeededCount
            failedCount = summary.failedCount
        }
    }

    public var notificationType: String
    public var subtype: String?
    public var notificationUUID: String
    /// Every notification's but RENEWAL_EXTENSION / SUMMARY's.
    public var data: Data?
    public var summary: Summary?
    public var version: String
    public var signedDate: Int64

    public func verify(using algorithm: some JWTAlgorithm) throws {}

    public init(type: String, subtype: String?, uuid: String, data: Data?, summary: Summary? = nil, signedAt signed: Date) {
        notificationType = type
        self.subtype = subtype
        notificationUUID = uuid
        self.data = data
        self.summary = summary
        version = "2.0"
        signedDate = AppleDate.milliseconds(signed)
    }
}

