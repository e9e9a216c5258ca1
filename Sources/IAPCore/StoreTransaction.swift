import Foundation

/// StoreKit 1 transaction states. A cancelled payment is `failed` with `StoreError.cancelled`, as in StoreKit.
public enum TransactionState: String, Sendable, Equatable, CaseIterable {
    case purchasing, purchased, failed, deferred, restored
}

public enum StoreError: String, Error, Sendable, Equatable {
    case cancelled
    case paymentFailed = "payment-failed"
    case alreadyPending = "already-pending"
    case unknownProduct = "unknown-product"
    /// Ask to Buy: the parent said no.
    case declined
    /// The payment was interrupted (a sheet to accept new terms, say); a purchased transaction may follow.
    case interrupted
    /// A move to a lower or equal level of a subscription group the account is subscribed to: nothing is charged now,
    /// the next renewal charges the new product.
    case changesAtRenewal = "changes-at-renewal"
    /// A promotional offer's signature is not the app's server's for this payment, was used before (its nonce), or is
    /// older than 24 hours (`SKErrorInvalidSignature`).
    case invalidSignature = "invalid-signature"
    /// The product has no promotional offer of that identifier (`SKErrorInvalidOfferIdentifier`).
    case invalidOfferIdentifier = "invalid-offer-identifier"
    /// The offer has no valid price (`SKErrorInvalidOfferPrice`).
    case invalidOfferPrice = "invalid-offer-price"
    /// A promotional offer asked for by an Apple ID that never subscribed to the group (`SKErrorIneligibleForOffer`).
    case ineligibleForOffer = "ineligible-for-offer"
    /// An offer code no offer of the app has (the App Store's sheet: the code is not valid).
    case invalidOfferCode = "invalid-offer-code"
    /// The Apple ID redeemed a code of this offer before: one redemption per offer per Apple ID.
    case offerCodeUsed = "offer-code-used"
    /// A one-time code some Apple ID redeemed already.
    case oneTimeCodeUsed = "one-time-code-used"
    /// A custom code redeemed as often as its limit allows.
    case offerCodeLimitReached = "offer-code-limit-reached"
    /// The offer is not for where the Apple ID stands in the group (new, current or lapsed subscriber).
    case offerCodeIneligible = "offer-code-ineligible"

    /// The App Store's redemption sheet refused the code: nothing is bought, and no product is named.
    public var refusesCode: Bool {
        [.invalidOfferCode, .offerCodeUsed, .oneTimeCodeUsed, .offerCodeLimitReached, .offerCodeIneligible].contains(self)
    }

    /// The promotional offer was refused: Apple's error for it, by its name in StoreKit 1 (`SKError`) or 2
    /// (`Product.PurchaseError`).
    public func appleName(in storeKit: StoreKitMode = .one) -> String? {
        let names: (one: String, two: String)? = switch self {
        case .invalidSignature: ("SKErrorInvalidSignature", "invalidOfferSignature")
        case .invalidOfferIdentifier: ("SKErrorInvalidOfferIdentifier", "invalidOfferIdentifier")
        case .invalidOfferPrice: ("SKErrorInvalidOfferPrice", "invalidOfferPrice")
        case .ineligibleForOffer: ("SKErrorIneligibleForOffer", "ineligibleForOffer")
        default: nil
        }
        return names.map { storeKit == .one ? $0.one : "Product.PurchaseError.\($0.two)" }
    }
}

/// What the payment queue reports to its observer, shaped like `SKPaymentTransaction`.
public struct StoreTransaction: Sendable, Equatable {
    public let id: String
    public let productId: String
    public var state: TransactionState
    /// The order id the client put on the payment; may come back empty.
    public let applicationUsername: String?
    public let date: Date
    public var error: StoreError?
    /// A `restored` transaction names the purchase it restores; nil means the transaction is its own original.
    public let originalTransactionId: String?
    /// The identity of the payment object the app added, as StoreKit hands the same `SKPayment` back: known only
    /// to the process that added it (a relaunch re-delivers transactions without it).
    public var paymentId: Int64?
    /// StoreKit 2's link to the app's account: the token the purchase carried (or the team's server set since), which
    /// every transaction of its chain carries; nil for a purchase made outside the app.
    public let appAccountToken: UUID?
    /// A charge the App Store made to renew its chain, not a purchase of the customer's (a resubscription, a code
    /// redeemed in the App Store, an upgrade are theirs).
    public let isRenewal: Bool

    public init(id: String, productId: String, state: TransactionState, applicationUsername: String?, date: Date, error: StoreError? = nil,
                originalTransactionId: String? = nil, paymentId: Int64? = nil, appAccountToken: UUID? = nil, isRenewal: Bool = false) {
        self.id = id
        self.productId = productId
        self.state = state
        self.applicationUsername = applicationUsername
        self.date = date
        self.error = error
        self.originalTransactionId = originalTransactionId
        self.paymentId = paymentId
        self.appAccountToken = appAccountToken
        self.isRenewal = isRenewal
    }

    public var originalId: String { originalTransactionId ?? id }

    /// Whether this could be the transaction of a payment some intent was written for: a first charge. A restore, and a
    /// charge in a chain the store already holds (a renewal, which no app added), are no intent's payment: used up by
    /// one, an intent was missing when its own payment came, and that payment went to whoever was logged in.
    public var mayBeNewPayment: Bool { state != .restored && originalTransactionId == nil }
}

/// A payment as the client adds it to the queue.
public struct Payment: Sendable, Equatable {
    public let productId: String
    public let applicationUsername: String?
    /// The app user who pressed Buy. A real `SKPayment` carries no such thing: the simulated store keeps it as the tests'
    /// record of who paid (I3), and charges it as the Apple ID only on a device where none is signed in.
    public let pressedBy: String?
    /// This payment's identity in this process: the id of the intent recorded for it (C3).
    public let id: Int64?
    /// StoreKit 2's `purchase(options: [.appAccountToken(_:)])`: the app user's token (nil in StoreKit 1, or when the
    /// backend could not give one).
    public let appAccountToken: UUID?

    /// The promotional offer asked for, signed by the app's server: `SKPayment.paymentDiscount` in StoreKit 1, the
    /// purchase option `promotionalOffer(_:compactJWS:)` in StoreKit 2.
    public let offerSignature: OfferSignature?
    /// StoreKit 2's purchase option `introductoryOfferEligibility(compactJWS:)`: the app's server decides the intro offer.
    public let introductoryOfferEligibility: String?
    /// StoreKit 2's purchase option `winBackOffer(_:)`: the win-back offer's identifier (no signature: Apple decides who
    /// may have it).
    public let winBackOfferId: String?
    /// StoreKit 2's purchase option `billingPlanType(_:)`: `.monthly` for the 12-month commitment; nil, up front.
    public let billingPlan: BillingPlan?
    /// The API that asked: StoreKit 2's `purchase(options:)` returns a purchase that failed or was cancelled as its
    /// result, and no transaction is left of it to finish.
    public let storeKit: StoreKitMode

    public init(productId: String, applicationUsername: String?, pressedBy: String? = nil, id: Int64? = nil, appAccountToken: UUID? = nil,
                offerSignature: OfferSignature? = nil, introductoryOfferEligibility: String? = nil, winBackOfferId: String? = nil,
                billingPlan: BillingPlan? = nil, storeKit: StoreKitMode = .one) {
        self.storeKit = storeKit
        self.winBackOfferId = winBackOfferId
        self.billingPlan = billingPlan
        self.productId = productId
        self.applicationUsername = applicationUsername
        self.pressedBy = pressedBy
        self.id = id
        self.appAccountToken = appAccountToken
        self.offerSignature = offerSignature
        self.introductoryOfferEligibility = introductoryOfferEligibility
    }
}
