import Foundation

/// A subscription offer with an identifier: a promotional offer (a .storekit file's `adHocOffers`), which Apple sells
/// only with a signature the app's server made for it (`PaymentDiscount`) and only to an Apple ID that subscribes or
/// subscribed to the group; an offer code's offer (`codeOffers`), redeemed with its code; or a win-back offer
/// (`winbackOffers`), for an Apple ID whose subscription churned. Its terms are an intro offer's (free, pay as you go,
/// pay up front).
public struct SubscriptionOffer: Sendable, Equatable {
    public let id: String
    public let terms: IntroOffer
    /// An offer code's rules (App Store Connect's); nil for a promotional offer.
    public let codes: CodeRules?
    /// A win-back offer's customer eligibility; nil for the other kinds.
    public let winBack: WinBackRules?

    public init(id: String, terms: IntroOffer, codes: CodeRules? = nil, winBack: WinBackRules? = nil) {
        self.id = id
        self.terms = terms
        self.codes = codes
        self.winBack = winBack
    }

    /// How an offer code's offer is redeemed, and by whom (App Store Connect's offer code settings).
    public struct CodeRules: Sendable, Equatable {
        /// Who may redeem, by where the Apple ID stands in the subscription group.
        public enum Eligibility: String, Sendable, Equatable, CaseIterable {
            /// Never subscribed in the group.
            case new
            /// Subscribed now.
            case existing
            /// Subscribed once; it is over.
            case expired
        }

        /// One-time codes: the store makes this many, each redeemed once by any Apple ID, and the offer's id is only its
        /// reference name. Zero: a custom code, the offer's id.
        public let oneTimeCodes: Int
        /// A custom code's redemption limit across all Apple IDs; nil: none.
        public let limit: Int?
        public let eligibility: Set<Eligibility>

        public init(oneTimeCodes: Int = 0, limit: Int? = nil, eligibility: Set<Eligibility> = Set(Eligibility.allCases)) {
            self.oneTimeCodes = oneTimeCodes
            self.limit = limit
            self.eligibility = eligibility
        }

        public static let custom = CodeRules()
        /// The most one-time codes one offer may have (App Store Connect makes at most this many per request).
        public static let mostOneTimeCodes = 10_000
    }

    /// An offer code as the App Store takes it: letters in any case, spaces ignored.
    public static func normalizedCode(_ code: String) -> String {
        code.filter { !$0.isWhitespace }.uppercased()
    }
}

/// StoreKit 1's `SKPaymentDiscount`: the offer the payment asks for, signed by the app's server with the subscription
/// offers key (App Store Connect's In-App Purchase key).
public struct PaymentDiscount: Codable, Sendable, Equatable {
    /// The offer's identifier.
    public let identifier: String
    public let keyIdentifier: String
    /// A UUID, lowercased in what is signed; Apple takes each once.
    public let nonce: String
    /// The signature, base64 (ECDSA P-256 over SHA-256, DER).
    public let signature: String
    /// When the server signed, in milliseconds since 1970; the signature is good for 24 hours.
    public let timestamp: Int64

    public init(identifier: String, keyIdentifier: String, nonce: String, signature: String, timestamp: Int64) {
        self.identifier = identifier
        self.keyIdentifier = keyIdentifier
        self.nonce = nonce
        self.signature = signature
        self.timestamp = timestamp
    }

    /// How long Apple takes a signature after its timestamp.
    public static let lifetime: TimeInterval = 86_400

    /// What is signed, as Apple's "Generating a signature for promotional offers" and its server libraries'
    /// `PromotionalOfferSignatureCreator` put it: the fields joined by U+2063 (invisible separator), the application
    /// username (the payment's `applicationUsername`, empty when none) and the nonce lowercased.
    public static func signedText(bundleId: String, keyIdentifier: String, productId: String, offerId: String,
                                  applicationUsername: String?, nonce: String, timestamp: Int64) -> String {
        [bundleId, keyIdentifier, productId, offerId, (applicationUsername ?? "").lowercased(), nonce.lowercased(), String(timestamp)]
            .joined(separator: "\u{2063}")
    }
}

/// StoreKit 2's `Product.PurchaseOption.promotionalOffer(_:compactJWS:)`: the offer the purchase asks for, and the JWS
/// the app's server signed for it with the subscription offers key (Apple's `PromotionalOfferV2SignatureCreator`).
public struct SignedPromotionalOffer: Codable, Sendable, Equatable {
    public let offerIdentifier: String
    public let compactJWS: String

    public init(offerIdentifier: String, compactJWS: String) {
        self.offerIdentifier = offerIdentifier
        self.compactJWS = compactJWS
    }
}

/// What the app's server signs for a promotional offer, in the StoreKit the app is written against.
public enum OfferSignature: Sendable, Equatable {
    /// StoreKit 1: `SKPaymentDiscount`, which covers the payment's `applicationUsername`.
    case discount(PaymentDiscount)
    /// StoreKit 2: a signed JWS, which covers the product and the offer.
    case signed(SignedPromotionalOffer)

    public var offerIdentifier: String {
        switch self {
        case let .discount(discount): discount.identifier
        case let .signed(offer): offer.offerIdentifier
        }
    }
}

/// The backend contract's request to sign an offer (`POST /backend/v1/offers`).
public struct OfferRequest: Codable, Sendable, Equatable {
    public let user: String
    public let productId: String
    public let offerId: String
    /// What the payment will carry as `applicationUsername` (the order id), which StoreKit 1's signature covers.
    public let applicationUsername: String?
    /// 2: the app is written against StoreKit 2 and asks for a signed JWS (`SignedPromotionalOffer`); absent or 1, for
    /// StoreKit 1's `PaymentDiscount`.
    public let storekit: Int?

    public init(user: String, productId: String, offerId: String, applicationUsername: String?, storekit: Int? = nil) {
        self.user = user
        self.productId = productId
        self.offerId = offerId
        self.applicationUsername = applicationUsername
        self.storekit = storekit
    }
}

/// A subscription offers key as App Store Connect hands it out (a .storekit file's `subscriptionOffersKeyPair`): its id
/// and its private key, base64 PKCS#8 or PEM. The private key is never printed: not even by `String(describing:)`.
public struct SubscriptionOffersKey: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    public let id: String
    public let privateKey: String

    public init(id: String, privateKey: String) {
        self.id = id
        self.privateKey = privateKey
    }

    public var description: String { "subscription offers key \(id)" }
    public var debugDescription: String { description }
}
