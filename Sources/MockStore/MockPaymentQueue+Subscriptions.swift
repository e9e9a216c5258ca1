import AppleVocabulary
import Foundation
import IAPCore

extension MockPaymentQueue {
    /// The account's subscriptions, one per group, as StoreKit reports their status.
    public func subscriptions(account: String) -> [SubscriptionStatus] {
        attempt { try database.subscriptions(account: database.appleId(for: account), terms: subscriptionTerms, at: scheduler.now) } ?? []
    }

    /// Settings › Subscriptions: turn auto-renew off (cancel) or back on (resubscribe before the end).
    public func setAutoRenew(_ on: Bool, originalTransactionId: String) {
        guard let news = attempt({ try database.setAutoRenew(on, original: originalTransactionId, at: scheduler.now) }) ?? nil else { return }
        tell(news)
        onSubscriptionsChanged()
    }

    /// A team's server extends a subscription's renewal date (the Server API): the app sees the later expiry, and the
    /// renewal waits for it.
    public func extendRenewal(originalTransactionId: String, days: Int, requestIdentifier: String) throws -> RenewalExtension {
        let outcome = try database.extendRenewal(original: originalTransactionId, days: days, requestIdentifier: requestIdentifier,
                                                 at: scheduler.now)
        extensionsChanged()
        return outcome
    }

    /// The same for every active subscriber whose current product is `productId`, when the request `reached` them
    /// (their storefront).
    public func extendAll(productId: String, days: Int, requestIdentifier: String, reached: Bool, storefronts: [String] = []) throws -> MassExtension {
        let done = try database.extendAll(productId: productId, days: days, requestIdentifier: requestIdentifier, reached: reached,
                                          storefronts: storefronts, at: scheduler.now)
        extensionsChanged()
        return done
    }

    /// The outbox holds what the extension told (RENEWAL_EXTENDED, RENEWAL_EXTENSION): the backend hears it, the sender
    /// wakes.
    private func extensionsChanged() {
        signedReceipt = nil
        outboxWritten()
        onSubscriptionsChanged()
    }

    /// Apple refunds a transaction (the account's latest paid one when none is named): it is marked with a
    /// cancellation date and reason, a subscription it paid for ends now, and the app's server is told (of a consumable,
    /// asked first, with the reason the customer gave). Nil when there is nothing to refund.
    public func refund(transactionId: String? = nil, account: String? = nil, because customer: ConsumptionRequestReason = .OTHER) -> String? {
        guard let id = transactionId ?? account.flatMap({ account in attempt { try database.latestRefundable(account: database.appleId(for: account), terms: subscriptionTerms) } ?? nil }),
              let (record, _, news) = attempt({ try database.refund(id, because: customer, at: scheduler.now) }) ?? nil
        else { return nil }
        signedReceipt = nil
        tell(news)
        onSubscriptionsChanged()
        return record.transaction.id
    }

    /// Apple declines a customer's refund request (for the account's latest paid charge when none is named): the
    /// purchase stands, and the app's server is told (a consumable's is asked about first, with the reason the customer
    /// gave). Nil when there is no paid, unrefunded charge to decide on.
    public func declineRefund(transactionId: String? = nil, account: String? = nil, because customer: ConsumptionRequestReason = .OTHER) -> String? {
        guard let id = transactionId ?? account.flatMap({ account in attempt { try database.latestRefundable(account: database.appleId(for: account), terms: subscriptionTerms) } ?? nil }),
              let (record, news) = attempt({ try database.declineRefund(id, because: customer, at: scheduler.now) }) ?? nil
        else { return nil }
        tell(news)
        return record.transaction.id
    }

    /// Apple reverses a refund it granted (the account's latest refunded charge when none is named): the charge is no
    /// longer cancelled, a subscription the refund ended runs again, and the app's server is told. Nil when the charge was
    /// not refunded.
    public func reverseRefund(transactionId: String? = nil, account: String? = nil) -> String? {
        guard let id = transactionId ?? account.flatMap({ account in attempt { try database.latestRefunded(account: database.appleId(for: account)) } ?? nil }),
              let (record, news) = attempt({ try database.reverseRefund(id, at: scheduler.now) }) ?? nil
        else { return nil }
        signedReceipt = nil
        tell(news)
        onSubscriptionsChanged()
        return record.transaction.id
    }

    /// The team raises the price of `productId` for its subscribers (App Store Connect): each is asked to agree, and the
    /// app's server is told. Answers how many were asked.
    @discardableResult
    public func raisePrice(productId: String) -> Int {
        let asked = attempt { try database.raisePrice(productId: productId, at: scheduler.now) } ?? 0
        if asked > 0 {
            outboxWritten()
            onSubscriptionsChanged()
        }
        return asked
    }

    /// The customer agrees to the price increase of a subscription (the sheet StoreKit shows, or Settings ›
    /// Subscriptions): its next renewal goes through at the new price.
    public func consentToPriceIncrease(originalTransactionId: String) {
        guard let news = attempt({ try database.consentToPriceIncrease(original: originalTransactionId, at: scheduler.now) }) ?? nil else { return }
        tell(news)
        onSubscriptionsChanged()
    }

    /// When the store next acts on a subscription on its own (a renewal, a retry, an expiry).
    public func nextSubscriptionEvent() -> Date? {
        attempt { try database.nextSubscriptionDue() } ?? nil
    }

    /// Apple's receipt entry for a transaction.
    func entry(_ row: ReceiptRow) -> Receipt.Entry {
        Receipt.Entry(row, group: subscriptionTerms[row.transaction.productId]?.group)
    }
}
