import Foundation
import IAPCore

/// Apple's `JWSRenewalInfoDecodedPayload`: what a subscription's next renewal will do. Here, beside the signed
/// transaction, so that the store can write down what a notification carries when it happens.
public struct JWSRenewalInfo: Codable, Equatable, Sendable {
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
    /// The customer's download of the app, and the chain's token from the app or its server.
    public var appTransactionId: String?
    public var appAccountToken: String?
    /// The offer the next renewal is charged at, while its periods last: as a signed transaction's.
    public var offerType: Int?
    public var offerIdentifier: String?
    public var offerDiscountType: String?
    public var offerPeriod: String?
    /// The start of the series of charges the latest belongs to, ignoring lapses shorter than 60 days.
    public var recentSubscriptionStartDate: Int64?
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
        // Apple: always there, even once expired: the latest charge's end, which is the renewal when it renews.
        renewalDate = expires.map(AppleDate.milliseconds)
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
        if renewalBillingPlanType == nil, chain.latest.product?.subscription?.monthlyCommitment != nil {
            // Sold with billing plans and renewing outside a commitment: up front, as its charges say.
            renewalBillingPlanType = BillingPlan.upFront.rawValue
        }
        appTransactionId = chain.latest.appTransactionId
        appAccountToken = chain.latest.signedAccountToken
        if let offer = chain.renewalOffer {
            offerType = offer.type
            offerIdentifier = offer.id
            offerDiscountType = offer.terms.appleDiscountType
            offerPeriod = offer.terms.applePeriod
        }
        recentSubscriptionStartDate = chain.recentStart.map(AppleDate.milliseconds)
        renewalPrice = chain.renewalPrice?.milliunits
        currency = chain.renewalPrice?.currency
    }
}
