import AppleVocabulary
import Foundation
import GRDB
import IAPCore

/// One subscription chain as Apple keeps it: an account's subscription in one group, whatever level it is at now.
/// Its `originalTransactionId` is the chain's first purchase and stays the same across renewals, plan changes and a
/// resubscription after expiry. A row of the store's `subscription` table, read and written by column name; Apple's
/// rules for it are the functions below, on values, which the store's database applies and saves.
struct SubscriptionRecord: Equatable, Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "subscription"
    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .timeIntervalSince1970 }
    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .timeIntervalSince1970 }

    let originalTransactionId: String
    let account: String
    let group: String
    var productId: String
    /// `auto_renew_product_id`: a downgrade or crossgrade waits here for the renewal.
    var renewsAs: String
    /// The subscriber's setting (Settings › Subscriptions), which a reversed refund finds as it was.
    var autoRenew: Bool
    var expiresAt: Date
    var latestTransactionId: String
    /// Offer periods still to come after the current one (an intro offer's pay as you go; a promotional offer's, which
    /// may start at the next renewal).
    var introLeft: Int
    /// The promotional offer `introLeft` counts the periods of; nil: the intro offer's.
    var offerId: String?
    /// While a renewal is retried: when Apple stops retrying (`billingRetryDays` after the expiry).
    var retryUntil: Date?
    /// While a renewal is retried and the grace period lasts (the service stays on): its end. Nil once it has ended.
    var graceUntil: Date?
    var failuresLeft: Int?
    /// Apple's `expiration_intent` once expired (`ExpirationIntent`).
    var expirationIntent: Int?
    var revokedAt: Date?
    /// When the store next acts on it (a renewal, a retry, the end of grace, an expiry); nil once over.
    var dueAt: Date?
    /// A price increase waiting for the next renewal, and whether the customer agreed to it.
    var priceIncrease: SubscriptionStatus.PriceIncrease?
    /// Billed monthly with a 12-month commitment: the month of the commitment the latest charge paid (1 to 12), and
    /// when the commitment ends. Nil when billed up front.
    var commitmentPeriod: Int?
    var commitmentEndsAt: Date?

    enum CodingKeys: String, CodingKey {
        case originalTransactionId, account, group = "groupId", productId, renewsAs, autoRenew, expiresAt, latestTransactionId, introLeft
        case retryUntil, graceUntil, failuresLeft, expirationIntent, revokedAt, dueAt, priceIncrease, offerId, commitmentPeriod, commitmentEndsAt
    }

    /// Inside a commitment with months still to pay: the next renewal charges whatever auto-renew says.
    var committed: Bool { (commitmentPeriod ?? CommitmentPlan.billingPeriods) < CommitmentPlan.billingPeriods }

    init(originalTransactionId: String, account: String, group: String, productId: String, expiresAt: Date, latestTransactionId: String,
         introLeft: Int) {
        self.originalTransactionId = originalTransactionId
        self.account = account
        self.group = group
        self.productId = productId
        renewsAs = productId
        autoRenew = true
        self.expiresAt = expiresAt
        self.latestTransactionId = latestTransactionId
        self.introLeft = introLeft
        dueAt = expiresAt
    }

    /// How long Apple waits between two attempts to bill a failed renewal.
    static let billingRetryInterval: TimeInterval = 86_400
    /// How long after the expiry Apple keeps trying to bill a failed renewal (its billing retry period).
    static let billingRetryDays = 60

    var isOver: Bool { expirationIntent != nil || revokedAt != nil }

    /// Auto-renew as Apple reports it: off once Apple refunded the chain, as Apple cancels a subscription it refunds.
    var willAutoRenew: Bool { autoRenew && revokedAt == nil }

    /// What StoreKit reports for it; `offer` is the latest transaction's.
    /// `free`: the latest charge's offer is a free one (a free trial, or a promotional or code offer's free period).
    func status(offer: TransactionDetails.Offer?, free: Bool = false) -> SubscriptionStatus {
        let (state, date): (SubscriptionStatus.State, Date?) =
            if revokedAt != nil { (.revoked, revokedAt) }
            else if expirationIntent != nil { (.expired, expiresAt) }
            else if let graceUntil { (.gracePeriod, graceUntil) }
            else if let retryUntil { (.billingRetry, retryUntil) }
            // Inside a 12-month commitment it ends with the commitment.
            else if !autoRenew { (.cancelled, commitmentPeriod == nil ? expiresAt : commitmentEndsAt ?? expiresAt) }
            // A promotional offer's price is the subscriber's price for now, not a trial.
            else if offer == .trial || offer == .intro || free { (.trial, expiresAt) }
            else { (.active, expiresAt) }
        var status = SubscriptionStatus(productId: productId, group: group, state: state, date: date,
                                        renewsAs: renewsAs == productId || !willAutoRenew ? nil : renewsAs, originalTransactionId: originalTransactionId,
                                        priceIncrease: isOver ? nil : priceIncrease)
        status.renewalOffer = introLeft > 0 ? offerId.map { SubscriptionStatus.RenewalOffer(id: $0, periods: introLeft) } : nil
        status.billingPlan = commitmentPeriod == nil ? nil : .monthly
        status.freeOffer = state == .trial && offer != .trial && offer != .intro
        status.willAutoRenew = willAutoRenew
        return status
    }

    /// What Apple tells the app's server of the chain as it now is.
    func notification(_ kind: StoreNotification.Kind, _ subtype: StoreNotification.Subtype? = nil, productId: String? = nil,
                      transaction: String? = nil, webOrder: String? = nil, graceUntil: Date? = nil, at date: Date) -> StoreNotification {
        StoreNotification(kind, subtype, account: account, productId: productId ?? self.productId, transactionId: transaction,
                          originalTransactionId: originalTransactionId, webOrderLineItemId: webOrder, expiresDate: expiresAt,
                          graceUntil: graceUntil, date: date)
    }
}

// MARK: A payment for a subscription

/// What a new payment for a subscription will be, decided when it is added (the sheet says it at once).
enum SubscriptionPlan: Equatable {
    /// Nothing subscribed in the group, or what was has ended: charge.
    case charge
    /// Subscribed to this very product: a regular purchase that charges nothing (and auto-renew back on).
    case owned(originalTransactionId: String)
    /// Subscribed to a product of a higher level: charge now, the upgrade takes effect at once.
    case upgrade
    /// Subscribed at a higher or the same level: no charge, the next renewal changes the product.
    case changeAtRenewal

    /// `current`: the account's chain in the product's group, if it has one.
    init(current: SubscriptionRecord?, productId: String, terms: SubscriptionTerms, levels: [String: Int]) {
        guard let current, !current.isOver else { self = .charge; return }
        if current.productId == productId { self = .owned(originalTransactionId: current.originalTransactionId); return }
        self = terms.level < levels[current.productId, default: Int.max] ? .upgrade : .changeAtRenewal
    }
}

/// A charge for a subscription went through: the chain it starts, resumes or upgrades, the charge's fields, and what
/// becomes of the chain's latest charge (an upgrade ends it now and refunds the rest of its period).
struct SubscriptionCharge: Equatable {
    var chain: SubscriptionRecord
    var details: TransactionDetails
    var endedLatest: TransactionDetails?
    var news: StoreNotification

    /// `existing`: the account's chain in the group; `latest`: when its latest charge started and its fields, for an
    /// upgrade. `id` is the new charge and `webOrder` its web order line item.
    /// `offer`: the promotional offer the payment was signed for (judged when it was added: the account subscribes or
    /// subscribed to the group), or the offer code's offer (`kind` `.code`), which prices this charge and, paid as you
    /// go, the renewals after it. A charge at an offer is told as OFFER_REDEEMED.
    /// `introEligible`: StoreKit 2's introductory offer eligibility the app's server signed, which decides the intro offer
    /// of a new subscription or a resubscription in Apple's place (an upgrade has none either way); nil: Apple's rule.
    init(existing: SubscriptionRecord?, latest: (start: Date, details: TransactionDetails)?, id: String, account: String,
         productId: String, terms: SubscriptionTerms, offer: SubscriptionOffer? = nil, kind offerKind: TransactionDetails.Offer = .promotional,
         introEligible: Bool? = nil, plan: BillingPlan? = nil, webOrder: String, at date: Date) {
        details = TransactionDetails(webOrderLineItemId: webOrder)
        // Monthly with a 12-month commitment: a new subscription or a resubscription bills its first month now, at no
        // offer (iapsim configures none for the plan).
        let monthly = plan == .monthly && terms.monthlyCommitment != nil && existing?.isOver != false ? CommitmentPlan.billingPeriod : nil
        // A win-back offer is for a subscription that churned: a new or running one pays the regular price. The plan's
        // first month takes no offer either.
        let offer = monthly != nil || (offerKind == .winBack && existing?.isOver != true) ? nil : offer
        let promotional = offer.map { $0.terms }
        let kind: StoreNotification.Kind, subtype: StoreNotification.Subtype
        if var current = existing, !current.isOver {
            // An upgrade: the new level starts now, and what was left of the old period is refunded.
            if var ended = latest?.details {
                let length = current.expiresAt.timeIntervalSince(latest?.start ?? date)
                ended.cancellationDate = date
                ended.refundedShare = length > 0 ? min(max(current.expiresAt.timeIntervalSince(date) / length, 0), 1) : 0
                endedLatest = ended
            }
            let expires = promotional.map { $0.period.end(from: date, count: $0.chargedPeriods) } ?? terms.period.end(from: date)
            details.expiresDate = expires
            current.productId = productId
            current.renewsAs = productId
            current.autoRenew = true
            current.expiresAt = expires
            current.latestTransactionId = id
            current.introLeft = promotional?.periodsAfterFirstCharge ?? 0
            current.offerId = offer?.id
            // An upgrade inside a 12-month commitment ends it: the new level is billed on its own period.
            (current.commitmentPeriod, current.commitmentEndsAt) = (nil, nil)
            if let offer { (details.offer, details.offerId) = (offerKind, offer.id) }
            current.endRetry()
            current.dueAt = expires
            chain = current
            (kind, subtype) = (.didChangeRenewalPref, .upgrade)
        } else {
            // A first subscription in the group, or a resubscription of a lapsed chain (the same chain). The intro offer
            // is the Apple ID's once per group: a first subscription has it unless the app's server signed it none, a
            // resubscription only if the server signed it one. An offer (an offer code's, or a promotional or win-back
            // offer, which are for just such a lapsed subscriber) or the plan's first month takes its place.
            let introAllowed = existing == nil ? introEligible != false : introEligible == true
            let intro = monthly != nil ? nil : promotional ?? (introAllowed ? terms.introOffer : nil)
            details.mark(offer, kind: offerKind, intro: intro)
            let expires = monthly?.end(from: date) ?? intro.map { $0.period.end(from: date, count: $0.chargedPeriods) } ?? terms.period.end(from: date)
            details.expiresDate = expires
            chain = SubscriptionRecord(originalTransactionId: existing?.originalTransactionId ?? id, account: account, group: terms.group,
                                       productId: productId, expiresAt: expires, latestTransactionId: id,
                                       introLeft: intro?.periodsAfterFirstCharge ?? 0)
            chain.offerId = offer?.id
            if monthly != nil { chain.startCommitment(at: date, details: &details) }
            (kind, subtype) = (.subscribed, existing == nil ? .initialBuy : .resubscribe)
        }
        // Apple tells a change made at an offer the customer redeemed (a promotional or win-back offer, an offer code;
        // not the introductory offer) as OFFER_REDEEMED, subtyped as the change.
        news = chain.notification(offer != nil ? .offerRedeemed : kind, subtype, transaction: id, at: date)
    }
}

extension SubscriptionRecord {
    /// A 12-month commitment starts with the charge at `date`, its first month.
    mutating func startCommitment(at date: Date, details: inout TransactionDetails) {
        commitmentPeriod = 1
        commitmentEndsAt = SubscriptionPeriod(months: CommitmentPlan.billingPeriods).end(from: date)
        (details.billingPeriod, details.commitmentEndsAt) = (commitmentPeriod, commitmentEndsAt)
    }
}

extension IntroOffer {
    /// How many of its periods one charge pays for: all of them up front, else one.
    var chargedPeriods: Int { mode == .payUpFront ? periods : 1 }

    /// The offer's periods still to be charged after the first charge (pay as you go).
    var periodsAfterFirstCharge: Int { mode == .payAsYouGo ? periods - 1 : 0 }
}

// MARK: What the subscriber changes

extension SubscriptionRecord {
    /// A promotional offer bought by a current subscriber prices the renewals from the next one.
    mutating func startOfferAtRenewal(_ offer: SubscriptionOffer) {
        offerId = offer.id
        introLeft = offer.terms.mode == .payAsYouGo ? offer.terms.periods : 1
    }

    /// The subscriber asked to change to `productId` at the next renewal (a downgrade or crossgrade); nil once over.
    func changingAtRenewal(to productId: String) -> SubscriptionRecord? {
        guard !isOver else { return nil }
        var changed = self
        changed.renewsAs = productId
        changed.autoRenew = true
        return changed
    }

    /// Apple's renewal-date extension (a service outage, a customer's goodwill): the current period ends `days` later,
    /// and its renewal with it. Nil when Apple extends nothing: a subscription that is over, past its expiry at `now`, or
    /// retrying a failed renewal.
    func extended(byDays days: Int, at now: Date) -> SubscriptionRecord? {
        guard !isOver, retryUntil == nil, expiresAt > now else { return nil }
        var changed = self
        changed.expiresAt = SubscriptionPeriod(days: days).end(from: expiresAt)
        changed.dueAt = changed.expiresAt
        return changed
    }

    /// Auto-renew turned off (cancelled in Settings) or back on (resubscribed, or the product bought again before the
    /// end); nil when nothing changes.
    func settingAutoRenew(_ on: Bool) -> SubscriptionRecord? {
        guard !isOver, autoRenew != on else { return nil }
        var changed = self
        changed.autoRenew = on
        if retryUntil == nil { changed.dueAt = expiresAt }
        return changed
    }

    /// Apple refunded a charge of the chain: it ends now. Nil when it was revoked already.
    func revoked(at date: Date) -> SubscriptionRecord? {
        guard revokedAt == nil else { return nil }
        var changed = self
        changed.revokedAt = date
        changed.dueAt = nil
        changed.endRetry()
        return changed
    }

    /// Apple reversed the refund that ended the chain: it runs to the end of its period as before. Nil when it was not
    /// revoked.
    func reinstated() -> SubscriptionRecord? {
        guard revokedAt != nil else { return nil }
        var changed = self
        changed.revokedAt = nil
        changed.dueAt = expirationIntent == nil ? expiresAt : nil
        return changed
    }

    /// The renewal went through, or the chain ended: no more billing attempts, no grace.
    mutating func endRetry() {
        retryUntil = nil
        graceUntil = nil
        failuresLeft = nil
    }
}

// MARK: The chain's due date

/// What happens to a chain at its due date: Apple's rules for renewal, billing retry, grace and expiry.
struct DueStep: Equatable {
    enum Outcome: Equatable {
        /// It ended (`expirationIntent` says why); EXPIRED with this subtype.
        case expired(StoreNotification.Subtype)
        /// A billing attempt failed. Apple tells of the first failure (DID_FAIL_TO_RENEW, with the subtype GRACE_PERIOD
        /// when the app has one) and of the end of grace (GRACE_PERIOD_EXPIRED), not of every daily attempt.
        case billingFailed(first: Bool, graceEnded: Bool)
        /// The charge went through: a new transaction in the chain, for `productId`, from `start`.
        case renewed(productId: String, start: Date, details: TransactionDetails, recovered: Bool)
    }

    /// The chain after the step; a renewal's new transaction is its latest once written (`renewed(as:)`).
    var chain: SubscriptionRecord
    var outcome: Outcome
    /// When the step happened: the chain's due date.
    var at: Date

    /// What Apple tells the app's server of it; `transaction` is a renewal's new transaction.
    func notification(transaction: String? = nil) -> StoreNotification? {
        switch outcome {
        case let .expired(subtype):
            chain.notification(.expired, subtype, at: at)
        case let .billingFailed(first, graceEnded):
            graceEnded ? chain.notification(.gracePeriodExpired, at: at)
                : first ? chain.notification(.didFailToRenew, chain.graceUntil == nil ? nil : .gracePeriod, graceUntil: chain.graceUntil, at: at) : nil
        case let .renewed(_, _, details, recovered):
            chain.notification(.didRenew, recovered ? .billingRecovery : nil, transaction: transaction, webOrder: details.webOrderLineItemId, at: at)
        }
    }
}

extension SubscriptionRecord {
    /// The chain's step at its due date (or `now`, for a chain with none). `terms`: the catalog's subscriptions;
    /// `billingFailures`: how many billing attempts fail, when this is a renewal's first; `webOrder`: the web order line
    /// item a renewal's charge takes.
    func dueStep(now: Date, terms: [String: SubscriptionTerms], billingFailures: Int, webOrder: @autoclosure () throws -> String) rethrows -> DueStep {
        var chain = self
        let at = dueAt ?? now
        func expire(_ intent: Int, _ subtype: StoreNotification.Subtype) -> DueStep {
            chain.expirationIntent = intent
            chain.endRetry()
            chain.dueAt = nil
            return DueStep(chain: chain, outcome: .expired(subtype), at: at)
        }
        guard let product = terms[renewsAs] ?? terms[productId] else { return expire(ExpirationIntent.productUnavailable, .voluntary) }
        // Auto-renew off inside a 12-month commitment ends it at the commitment's end: the months left are still billed.
        guard autoRenew || committed else { return expire(ExpirationIntent.cancelled, .voluntary) }
        // A price increase the customer never agreed to ends the subscription at the renewal, uncharged.
        if priceIncrease == .pending { return expire(ExpirationIntent.priceIncrease, .priceIncrease) }
        // Apple stopped retrying: the subscription ends for a billing error.
        if let retryUntil, at >= retryUntil { return expire(ExpirationIntent.billingError, .billingRetry) }
        let failures = failuresLeft ?? billingFailures
        if failures > 0 {
            // Attempts fall on whole days after the expiry, and so do the grace period's end and the retries' end.
            let first = retryUntil == nil
            var retryEnd = retryUntil ?? at
            if first {
                chain.graceUntil = product.gracePeriodDays.map { SubscriptionPeriod(days: $0).end(from: expiresAt) }
                retryEnd = SubscriptionPeriod(days: Self.billingRetryDays).end(from: expiresAt)
                chain.retryUntil = retryEnd
            }
            chain.failuresLeft = failures - 1
            chain.dueAt = min(at.addingTimeInterval(Self.billingRetryInterval), retryEnd)
            let graceEnded = chain.graceUntil.map { at >= $0 } ?? false
            if graceEnded { chain.graceUntil = nil }
            return DueStep(chain: chain, outcome: .billingFailed(first: first, graceEnded: graceEnded), at: at)
        }
        // The charge goes through, for the product the renewal was set to; a renewal starts where the period ended, and
        // after a failed billing where the charge finally went through.
        let recovered = retryUntil != nil
        // Inside a commitment the plan and its product stay until its end; a change waits for the next commitment.
        let renewed = committed || terms[renewsAs] == nil ? productId : renewsAs
        let start = recovered ? at : expiresAt
        var details = TransactionDetails(webOrderLineItemId: try webOrder())
        // The offer the coming periods are priced at: a promotional, win-back or offer code's offer, else the intro offer's.
        let promotional = offerId.flatMap { product.promotionalOffer($0) }
        let winBack = offerId.flatMap { product.winBackOffer($0) }
        let named = promotional ?? winBack ?? offerId.flatMap { id in product.codeOffers.first { $0.id == id } }
        if let month = commitmentPeriod, committed || renewed == productId {
            // Billed monthly: the next month of the commitment, or the first of a new one.
            if month < CommitmentPlan.billingPeriods {
                chain.commitmentPeriod = month + 1
                (details.billingPeriod, details.commitmentEndsAt) = (chain.commitmentPeriod, commitmentEndsAt)
            } else {
                chain.startCommitment(at: start, details: &details)
            }
            details.expiresDate = CommitmentPlan.billingPeriod.end(from: start)
        } else if commitmentPeriod != nil {
            // The commitment ended with a change of plan: the new product renews on its own period.
            (chain.commitmentPeriod, chain.commitmentEndsAt) = (nil, nil)
            details.expiresDate = (terms[renewed] ?? product).period.end(from: start)
            chain.introLeft = 0
        } else if introLeft > 0, let offer = named?.terms ?? (offerId == nil ? product.introOffer : nil) {
            details.offer = named == nil ? .intro : promotional != nil ? .promotional : winBack != nil ? .winBack : .code
            details.offerId = named?.id
            details.expiresDate = offer.period.end(from: start, count: offer.chargedPeriods)
            chain.introLeft -= 1
        } else {
            details.expiresDate = product.period.end(from: start)
            chain.introLeft = 0
        }
        if chain.introLeft == 0 { chain.offerId = nil }
        chain.productId = renewed
        // A change asked for inside a commitment waits for its end.
        chain.renewsAs = committed ? renewsAs : renewed
        // The renewal charges the new price: it is the price from now on.
        chain.priceIncrease = nil
        chain.expiresAt = details.expiresDate ?? start
        chain.endRetry()
        chain.dueAt = chain.expiresAt
        return DueStep(chain: chain, outcome: .renewed(productId: renewed, start: start, details: details, recovered: recovered), at: at)
    }
}
