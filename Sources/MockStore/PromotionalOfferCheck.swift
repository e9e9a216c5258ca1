import AppleVocabulary
import Foundation
import IAPCore

/// Apple's judgement of a payment that asks for a promotional offer, when it is added: the offer exists for the
/// product, the signature is the app's server's (this key, this payment's fields, signed within 24 hours), the offer has
/// a price, and the Apple ID subscribes or subscribed to the group. Pure: the key and the account's history are given;
/// the nonce it answers is taken afterwards, by a payment this lets through.
enum PromotionalOfferCheck {
    static func judge(_ signature: OfferSignature, payment: Payment, terms: SubscriptionTerms?, key: OffersKeyPair?,
                      hasSubscribed: Bool, bundleId: String, now: Date) -> Result<(offer: SubscriptionOffer, nonce: String), StoreError> {
        guard let terms, let offer = terms.promotionalOffer(signature.offerIdentifier) else { return .failure(.invalidOfferIdentifier) }
        let signed: (at: Date, nonce: String)
        switch signature {
        case let .discount(discount):
            let text = PaymentDiscount.signedText(bundleId: bundleId, keyIdentifier: discount.keyIdentifier, productId: payment.productId,
                                                  offerId: discount.identifier, applicationUsername: payment.applicationUsername,
                                                  nonce: discount.nonce, timestamp: discount.timestamp)
            guard let key, key.id == discount.keyIdentifier, key.verifies(discount.signature, of: text) else { return .failure(.invalidSignature) }
            signed = (Date(timeIntervalSince1970: Double(discount.timestamp) / 1000), discount.nonce)
        case let .signed(option):
            // StoreKit 2's JWS names the product and the offer itself; both must be this purchase's.
            guard let jws = SignedAppStoreRequest(compactJWS: option.compactJWS), let key, key.id == jws.keyId,
                  key.verifies(rawSignature: jws.signature, of: jws.signingInput),
                  jws.claims.aud == SignedAppStoreRequest.Claims.promotionalOffer, jws.claims.bid == bundleId,
                  jws.claims.productId == payment.productId, jws.claims.offerIdentifier == option.offerIdentifier
            else { return .failure(.invalidSignature) }
            signed = (jws.claims.signedAt, jws.claims.nonce)
        }
        guard now.timeIntervalSince(signed.at) <= PaymentDiscount.lifetime else { return .failure(.invalidSignature) }
        guard offer.terms.mode == .freeTrial || offer.terms.price != nil else { return .failure(.invalidOfferPrice) }
        guard hasSubscribed else { return .failure(.ineligibleForOffer) }
        return .success((offer, signed.nonce))
    }
}
