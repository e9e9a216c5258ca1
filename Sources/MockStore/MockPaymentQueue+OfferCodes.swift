import AppleVocabulary
import Foundation
import IAPCore

extension MockPaymentQueue {
    /// An offer code redeemed by `account` (the device's Apple ID), in the app's redemption sheet or in the App Store
    /// app: Apple's side decides at once. What it starts or resumes arrives in this device's queue as a `purchased`
    /// transaction that no order, intent or payment names, told to the observer if the app is running and re-delivered
    /// at its next launch otherwise. Answers the transaction (nil: a subscriber of the group gets the offer from the next
    /// renewal), or the App Store's refusal: a code no offer has, or an offer the Apple ID redeemed before.
    public func redeem(code: String, account: String) -> Result<StoreTransaction?, StoreError> {
        guard let (productId, terms, offer) = subscriptionTerms.sorted(by: { $0.key < $1.key }).lazy
            .compactMap({ id, terms in terms.codeOffer(redeemedBy: code).map { (id, terms, $0) } }).first
        else { return .failure(.invalidOfferCode) }
        do {
            let (transaction, news) = try database.redeemOfferCode(offer, productId: productId, terms: terms, account: account, at: scheduler.now)
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
