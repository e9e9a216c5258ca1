import Foundation
import IAPCore

/// One transaction as Apple's servers hold it: the receipt's fields, the store account it charged and its product.
public struct AppleTransaction: Sendable, Equatable {
    public let entry: Receipt.Entry
    public let account: String?
    public let product: Product?
    /// A restore: a copy of an earlier purchase on this device, not a charge.
    public let isRestore: Bool
    public let applicationUsername: String?
    /// A charge the App Store made to renew its chain (Apple's transactionReason RENEWAL); a customer's own purchase
    /// in a chain it had (a resubscribe, an upgrade) is a purchase.
    public let isRenewal: Bool
    /// The token a team's server set on the original transaction (Set App Account Token), which every transaction of
    /// it carries in place of the one the app gave.
    public let appAccountToken: UUID?
    /// The win-back offer the charge was priced at: a signed transaction's offerType 4, which the receipt has no field for.
    public let winBackOfferId: String?
    /// A month of a 12-month commitment: which, and when the commitment ends (the Server API's `commitmentInfo`).
    public let commitment: Commitment?
    /// The paying account's download of the app (`appTransactionId`); nil when the store did not record who paid.
    public var appTransactionId: String?

    public struct Commitment: Sendable, Equatable {
        public let billingPeriod: Int
        public let endsAt: Date

        public init(billingPeriod: Int, endsAt: Date) {
            self.billingPeriod = billingPeriod
            self.endsAt = endsAt
        }
    }

    public init(entry: Receipt.Entry, account: String?, product: Product?, isRestore: Bool, applicationUsername: String?, isRenewal: Bool,
                appAccountToken: UUID? = nil, winBackOfferId: String? = nil, commitment: Commitment? = nil) {
        self.winBackOfferId = winBackOfferId
        self.commitment = commitment
        self.entry = entry
        self.account = account
        self.product = product
        self.isRestore = isRestore
        self.applicationUsername = applicationUsername
        self.isRenewal = isRenewal
        self.appAccountToken = appAccountToken
    }
}

/// One subscription chain as Apple's server reports it.
public struct AppleSubscription: Sendable {
    public let latest: AppleTransaction
    public let state: SubscriptionStatus.State
    public let renewal: PendingRenewalInfo
    public let expires: Date
    /// The win-back offers the customer may take now, best first (renewal info's `eligibleWinBackOfferIds`).
    public let eligibleWinBackOfferIds: [String]
    /// Inside a 12-month commitment: when it ends (renewal info's `commitmentInfo`; whether another starts then is the
    /// renewal's auto-renew status).
    public let commitmentEndsAt: Date?
    /// What the next renewal will charge, in thousandths of the currency (renewal info's `renewalPrice`, `currency`).
    public let renewalPrice: (milliunits: Int64, currency: String)?
    /// The offer the next renewal is charged at while its periods last: its type (1 introductory, 2 promotional, 3 an
    /// offer code's, 4 win-back), identifier (none for an introductory offer) and terms.
    public var renewalOffer: (type: Int, id: String?, terms: IntroOffer)?
    /// Where the series of charges the latest belongs to began, lapses shorter than 60 days ignored.
    public var recentStart: Date?

    public init(latest: AppleTransaction, state: SubscriptionStatus.State, renewal: PendingRenewalInfo, expires: Date,
                eligibleWinBackOfferIds: [String] = [], commitmentEndsAt: Date? = nil, renewalPrice: (milliunits: Int64, currency: String)? = nil) {
        self.renewalPrice = renewalPrice
        self.eligibleWinBackOfferIds = eligibleWinBackOfferIds
        self.commitmentEndsAt = commitmentEndsAt
        self.latest = latest
        self.state = state
        self.renewal = renewal
        self.expires = expires
    }
}

extension SubscriptionStatus.State {
    /// Apple's number for it in the Server API and notifications: 1 active, 2 expired, 3 billing retry, 4 grace period,
    /// 5 revoked.
    public var appleStatus: Int {
        switch self {
        case .active, .trial, .cancelled: 1
        case .expired: 2
        case .billingRetry: 3
        case .gracePeriod: 4
        case .revoked: 5
        }
    }
}

/// A customer's download of the app, as Apple's server reports it (Get App Transaction Info).
public struct AppleAppTransaction: Sendable, Equatable {
    /// One per store account, the same on every device and download, and never a transaction's id.
    public let appTransactionId: String
    /// When the account first had the app.
    public let originalPurchaseDate: Date

    public init(appTransactionId: String, originalPurchaseDate: Date) {
        self.appTransactionId = appTransactionId
        self.originalPurchaseDate = originalPurchaseDate
    }
}
