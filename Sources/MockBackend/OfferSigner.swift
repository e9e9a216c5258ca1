import AppleVocabulary
import Crypto
import Foundation
import IAPCore

/// What the app's server does with the subscription offers key, as Apple's server libraries'
/// `PromotionalOfferSignatureCreator`: ECDSA P-256 over SHA-256 of the offer's fields, base64 DER.
struct OfferSigner {
    struct NoKey: Error {}

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

    func sign(productId: String, offerId: String, applicationUsername: String?, nonce: String, at date: Date) throws -> PaymentDiscount {
        let timestamp = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let text = PaymentDiscount.signedText(bundleId: Receipt.bundleId, keyIdentifier: keyId, productId: productId, offerId: offerId,
                                              applicationUsername: applicationUsername, nonce: nonce, timestamp: timestamp)
        let signature = try key.signature(for: Data(text.utf8)).derRepresentation.base64EncodedString()
        return PaymentDiscount(identifier: offerId, keyIdentifier: keyId, nonce: nonce, signature: signature, timestamp: timestamp)
    }
}
