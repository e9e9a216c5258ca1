import AppleVocabulary
import Foundation
import IAPCore

extension MockPaymentQueue {
    /// An offer code redeemed by `account` (the device's Apple ID), in the app's redemption sheet or in the App Store
    /// app: Apple's side decides at once. What it starts or resumes arrives in this device's queue as a `purchased`
    /// transaction that no order, intent or payment names, told to the observer if the app is running and re-delivered
    /// at its next launch otherwise. Answers the transaction (nil: a subscriber of the group gets the offer from the next
    /// renewal), or the App Store's refusal: a code no offer has, a one-time code redeemed already, a custom code past its
    /// limit, an offer not for where the Apple ID stands in the group, or an offer the Apple ID redeemed before.
    public func redeem(code: String, account: String) -> Result<StoreTransaction?, StoreError> {
        let typed = SubscriptionOffer.normalizedCode(code)
        let oneTime = (attempt { try database.oneTimeCode(typed) } ?? nil).flatMap { found in
            subscriptionTerms[found.productId].flatMap { terms in
                terms.codeOffers.first { $0.id == found.offerId }.map { (found.productId, terms, $0) }
            }
        }
        guard let (productId, terms, offer) = oneTime ?? subscriptionTerms.sorted(by: { $0.key < $1.key }).lazy
            .compactMap({ id, terms in terms.codeOffer(redeemedBy: code).map { (id, terms, $0) } }).first
        else { return .failure(.invalidOfferCode) }
        do {
            let (transaction, news) = try database.redeemOfferCode(offer, productId: productId, terms: terms, account: account,
                                                                   oneTimeCode: oneTime == nil ? nil : typed, at: scheduler.now)
            signedReceipt = nil
            tell(news)
            onSubscriptionsChanged()
            if let transaction { notify(identified(transaction)) }
            return .success(transaction)
        } catch let refused as StoreError {
            return .failure(refused)
        } catch {
            onError("\(error)")
            return .failure(.paymentFailed)
        }
    }
}
