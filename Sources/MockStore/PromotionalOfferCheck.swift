import AppleVocabulary
import Foundation
import IAPCore

/// Apple's judgement of what the app's server signed for a payment, when it is added: a promotional offer (the offer
/// exists for the product, the signature is the server's for this key and these fields, signed within 24 hours, the
/// offer has a price, the Apple ID subscribes or subscribed to the group), and StoreKit 2's introductory offer
/// eligibility. Pure: the key and the account's history are given; the nonce it answers is taken afterwards, by a
/// payment this lets through.
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
            // StoreKit 2's JWS names the offer itself; it must be the one the purchase asks for.
            guard let jws = verified(option.compactJWS, for: SignedAppStoreRequest.Claims.promotionalOffer, productId: payment.productId, key: key,
                                     bundleId: bundleId),
                  jws.claims.offerIdentifier == option.offerIdentifier
            else { return .failure(.invalidSignature) }
            signed = (jws.claims.signedAt, jws.claims.nonce)
        }
        guard now.timeIntervalSince(signed.at) <= PaymentDiscount.lifetime else { return .failure(.invalidSignature) }
        guard offer.terms.mode == .freeTrial || offer.terms.price != nil else { return .failure(.invalidOfferPrice) }
        guard hasSubscribed else { return .failure(.ineligibleForOffer) }
        return .success((offer, signed.nonce))
    }

    /// StoreKit 2's `introductoryOfferEligibility(compactJWS:)`: whether the app's server lets this purchase have the
    /// product's introductory offer, whatever Apple's own rule (once per group per Apple ID) would say.
    static func eligibility(_ compactJWS: String, productId: String, key: OffersKeyPair?, bundleId: String, now: Date)
        -> Result<(allow: Bool, nonce: String), StoreError> {
        guard let jws = verified(compactJWS, for: SignedAppStoreRequest.Claims.introductoryOfferEligibility, productId: productId, key: key,
                                 bundleId: bundleId),
              let allow = jws.claims.allowIntroductoryOffer, now.timeIntervalSince(jws.claims.signedAt) <= PaymentDiscount.lifetime
        else { return .failure(.invalidSignature) }
        return .success((allow, jws.claims.nonce))
    }

    /// The JWS, when this key signed these bytes for this request, app and product.
    private static func verified(_ compactJWS: String, for audience: String, productId: String, key: OffersKeyPair?, bundleId: String)
        -> SignedAppStoreRequest? {
        guard let jws = SignedAppStoreRequest(compactJWS: compactJWS), let key, key.id == jws.keyId,
              key.verifies(rawSignature: jws.signature, of: jws.signingInput),
              jws.claims.aud == audience, jws.claims.bid == bundleId, jws.claims.productId == productId else { return nil }
        return jws
    }
}
