/// Apple's `JWSTransactionDecodedPayload`, field for field: what a signed transaction says. Here, beside Apple's other
/// words, so that the wire (AppleWire signs it) and its floor (which decodes and signs it again) share one type.
public struct JWSTransaction: Codable, Equatable, Sendable {
    public var originalTransactionId: String = ""
    public var transactionId: String = ""
    public var webOrderLineItemId: String?
    public var bundleId: String = ""
    public var productId: String = ""
    public var subscriptionGroupIdentifier: String?
    public var purchaseDate: Int64 = 0
    public var originalPurchaseDate: Int64 = 0
    public var expiresDate: Int64?
    public var quantity: Int = 0
    /// "Consumable", "Non-Consumable", "Auto-Renewable Subscription", "Non-Renewing Subscription".
    public var type: String = ""
    /// The purchase's `applicationUsername` when it is a UUID, as StoreKit carries it over, or the one a team's server set.
    public var appAccountToken: String?
    public var inAppOwnershipType: String = ""
    public var signedDate: Int64 = 0
    /// 1 an issue in the app, 0 another reason; with `revocationDate`, only when Apple refunded it.
    public var revocationReason: Int?
    public var revocationDate: Int64?
    /// An upgrade ended this charge early: it is no longer the subscription's.
    public var isUpgraded: Bool?
    /// 1: an introductory offer (a free trial or an intro price); 2: a promotional offer; 3: an offer code; 4: a win-back
    /// offer.
    public var offerType: Int?
    /// The promotional offer's identifier.
    public var offerIdentifier: String?
    /// The offer's payment mode: FREE_TRIAL, PAY_AS_YOU_GO, PAY_UP_FRONT.
    public var offerDiscountType: String?
    /// The whole offer as an ISO 8601 duration (`P1W`; a month three times `P3M`).
    public var offerPeriod: String?
    /// What the charge cost, in thousandths of `currency` (ISO 4217): the offer's price while one priced it.
    public var price: Int64?
    public var currency: String?
    /// The customer's download of the app (Get App Transaction Info's `appTransactionId`).
    public var appTransactionId: String?
    public var environment: String = ""
    /// "PURCHASE" or "RENEWAL".
    public var transactionReason: String = ""
    public var storefront: String = ""
    public var storefrontId: String = ""
    /// A subscription with billing plans: `BILLED_UPFRONT`, or `MONTHLY` (a month of a 12-month commitment).
    public var billingPlanType: String?
    /// A `MONTHLY` charge's place in its commitment.
    public var commitmentInfo: CommitmentInfo?

    /// Apple's `TransactionCommitmentInfo`.
    public struct CommitmentInfo: Codable, Equatable, Sendable {
        public var billingPeriodNumber: Int
        public var totalBillingPeriods: Int
        public var commitmentExpiresDate: Int64
        /// In thousandths of the currency.
        public var commitmentPrice: Int64?

        public init(billingPeriodNumber: Int, totalBillingPeriods: Int, commitmentExpiresDate: Int64, commitmentPrice: Int64?) {
            self.billingPeriodNumber = billingPeriodNumber
            self.totalBillingPeriods = totalBillingPeriods
            self.commitmentExpiresDate = commitmentExpiresDate
            self.commitmentPrice = commitmentPrice
        }
    }

    /// Empty, for the wire to fill in (AppleWire builds one from a store transaction).
    public init() {}
}
