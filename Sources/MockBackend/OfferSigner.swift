import AppleVocabulary
import Crypto
import Foundation
import IAPCore

/// What the app's server does with the subscription offers key, as Apple's server libraries do: StoreKit 1's
/// `PromotionalOfferSignatureCreator` (ECDSA P-256 over SHA-256 of the offer's fields, base64 DER) and StoreKit 2's
/// `PromotionalOfferV2SignatureCreator` (a compact JWS, ES256), and its `IntroductoryOfferEligibilitySignatureCreator`.
struct OfferSigner {
    struct NoKey: Error {}

    /// The `iss` of what the built-in server signs: iapsim's store has no team to check it against.
    static let issuerId = "iapsim"

    let keyId: String
    let key: P256.Signing.PrivateKey

    init?(_ offersKey: SubscriptionOffersKey) {
        let text = offersKey.privateKey.trimmingCharacters(in: .whitespacesAndNewlines)
        if let pem = try? P256.Signing.PrivateKey(pemRepresentation: text) {
            key = pem
        } else if let der = Data(base64Encoded: text, options: .ignoreUnknownCharacters), let parsed = try? P256.Signing.PrivateKey(derRepresentation: der) {
            key = parsed
        } else {
            return nil
        }
        keyId = offersKey.id
    }

    func sign(productId: String, offerId: String, applicationUsername: String?, nonce: String, storeKit: StoreKitMode, at date: Date) throws
        -> OfferSignature {
        switch storeKit {
        case .one:
            let timestamp = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
            let text = PaymentDiscount.signedText(bundleId: Receipt.bundleId, keyIdentifier: keyId, productId: productId, offerId: offerId,
                                                  applicationUsername: applicationUsername, nonce: nonce, timestamp: timestamp)
            let signature = try key.signature(for: Data(text.utf8)).derRepresentation.base64EncodedString()
            return .discount(PaymentDiscount(identifier: offerId, keyIdentifier: keyId, nonce: nonce, signature: signature, timestamp: timestamp))
        case .two:
            let claims = SignedAppStoreRequest.Claims(iss: Self.issuerId, bid: Receipt.bundleId, aud: SignedAppStoreRequest.Claims.promotionalOffer,
                                                      iat: date.timeIntervalSince1970.rounded(.down), nonce: nonce, productId: productId,
                                                      offerIdentifier: offerId)
            return .signed(SignedPromotionalOffer(offerIdentifier: offerId, compactJWS: try compactJWS(claims)))
        }
    }

    /// StoreKit 2's introductory offer eligibility, as Apple's `IntroductoryOfferEligibilitySignatureCreator` signs it.
    func introductoryOfferEligibility(productId: String, allow: Bool, transactionId: String, nonce: String, at date: Date) throws -> String {
        try compactJWS(SignedAppStoreRequest.Claims(iss: Self.issuerId, bid: Receipt.bundleId, aud: SignedAppStoreRequest.Claims.introductoryOfferEligibility,
                                                    iat: date.timeIntervalSince1970.rounded(.down), nonce: nonce, productId: productId,
                                                    allowIntroductoryOffer: allow, transactionId: transactionId))
    }

    private func compactJWS(_ claims: SignedAppStoreRequest.Claims) throws -> String {
        try SignedAppStoreRequest.compactJWS(claims, keyId: keyId) { try key.signature(for: $0).rawRepresentation }
    }
}
