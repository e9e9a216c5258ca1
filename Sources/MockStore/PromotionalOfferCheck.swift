import Foundation
import IAPCore

/// Apple's judgement of a payment that asks for a promotional offer, when it is added: the offer exists for the
/// product, the signature is the app's server's (this key, this payment's fields, signed within 24 hours), the offer has a price, and the Apple ID subscribes or subscribed to the group. Pure: the key and
/// the account's history are given; the nonce is taken afterwards, by a payment this lets through.
enum PromotionalOfferCheck {
    static func judge(_ discount: PaymentDiscount, payment: Payment, terms: SubscriptionTerms?, key: OffersKeyPair?,
                      hasSubscribed: Bool, bundleId: String, now: Date) -> Result<SubscriptionOffer, StoreError> {
        guard let terms, let offer = terms.promotionalOffer(discount.identifier) else { return .failure(.invalidOfferIdentifier) }
        let text = PaymentDiscount.signedText(bundleId: bundleId, keyIdentifier: discount.keyIdentifier, productId: payment.productId,
                                              offerId: discount.identifier, applicationUsername: payment.applicationUsername,
                                              nonce: discount.nonce, timestamp: discount.timestamp)
        guard let key, key.id == discount.keyIdentifier, key.verifies(discount.signature, of: text) else { return .failure(.invalidSignature) }
        let signedAt = Date(timeIntervalSince1970: Double(discount.timestamp) / 1000)
        guard now.timeIntervalSince(signedAt) <= PaymentDiscount.lifetime else { return .failure(.invalidSignature) }
        guard offer.terms.mode == .freeTrial || offer.terms.price != nil else { return .failure(.invalidOfferPrice) }
        guard hasSubscribed else { return .failure(.ineligibleForOffer) }
        return .success(offer)
    }
}
