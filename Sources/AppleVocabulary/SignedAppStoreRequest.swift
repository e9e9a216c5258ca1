import Foundation

/// Apple's "JWS to sign App Store requests" (StoreKit 2's signed promotional offer and introductory offer eligibility):
/// a compact JWS, ES256, whose header names the subscription key (`kid`), as Apple's server libraries'
/// `PromotionalOfferV2SignatureCreator` and `IntroductoryOfferEligibilitySignatureCreator` make it. The signature
/// itself is the caller's (the app's server signs, the store checks), so that this module stays free of cryptography.
public struct SignedAppStoreRequest: Sendable, Equatable {
    /// The claims every such request has, and those of the two features.
    public struct Claims: Codable, Sendable, Equatable {
        public static let promotionalOffer = "promotional-offer"
        public static let introductoryOfferEligibility = "introductory-offer-eligibility"

        /// The team's issuer id.
        public var iss: String
        /// The app's bundle id.
        public var bid: String
        /// Which request: `promotional-offer` or `introductory-offer-eligibility`.
        public var aud: String
        /// When it was signed, in seconds since 1970.
        public var iat: Double
        /// A UUID; Apple takes each once.
        public var nonce: String
        public var productId: String
        public var offerIdentifier: String?
        public var allowIntroductoryOffer: Bool?
        /// Any transaction of the customer's (optional for an offer).
        public var transactionId: String?

        public init(iss: String, bid: String, aud: String, iat: Double, nonce: String, productId: String, offerIdentifier: String? = nil,
                    allowIntroductoryOffer: Bool? = nil, transactionId: String? = nil) {
            self.iss = iss
            self.bid = bid
            self.aud = aud
            self.iat = iat
            self.nonce = nonce
            self.productId = productId
            self.offerIdentifier = offerIdentifier
            self.allowIntroductoryOffer = allowIntroductoryOffer
            self.transactionId = transactionId
        }

        public var signedAt: Date { Date(timeIntervalSince1970: iat) }
    }

    struct Header: Codable {
        var alg: String
        var kid: String
        var typ: String?
    }

    public let keyId: String
    public let claims: Claims
    /// What the signature covers: the header and the claims, base64url, joined by a dot.
    public let signingInput: Data
    /// ECDSA P-256 over SHA-256 of `signingInput`, as JWS has it: r and s, 32 bytes each.
    public let signature: Data

    /// Reads a compact JWS; nil when it is not one of ES256 with a key id and these claims. The signature is not checked.
    public init?(compactJWS: String) {
        let parts = compactJWS.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]), let claimBytes = Base64URL.decode(parts[1]),
              let signature = Base64URL.decode(parts[2]),
              let header = try? JSONDecoder().decode(Header.self, from: headerBytes), header.alg == "ES256",
              let claims = try? JSONDecoder().decode(Claims.self, from: claimBytes) else { return nil }
        keyId = header.kid
        self.claims = claims
        signingInput = Data("\(parts[0]).\(parts[1])".utf8)
        self.signature = signature
    }

    /// The compact JWS of `claims` under the key `keyId`, signed by `sign` (raw r‖s of its input).
    public static func compactJWS(_ claims: Claims, keyId: String, sign: (Data) throws -> Data) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let input = Base64URL.encode(try encoder.encode(Header(alg: "ES256", kid: keyId, typ: "JWT"))) + "." + Base64URL.encode(try encoder.encode(claims))
        return input + "." + Base64URL.encode(try sign(Data(input.utf8)))
    }
}
