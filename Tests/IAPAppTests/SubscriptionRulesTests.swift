import AppleVocabulary
import Foundation
import IAPCore
@testable import MockStore
import Testing

/// The App Store's rules for a subscription chain, on values alone: no database, no clock, no queue.
@Suite("The store's subscription rules as functions: a payment's plan, a charge, a due date, a change, a refund")
struct SubscriptionRulesTests {
    static let day: TimeInterval = 86_400
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let monthly = SubscriptionTerms(group: "vip", level: 2, period: SubscriptionPeriod(months: 1),
                                           introOffer: IntroOffer(mode: .freeTrial, period: SubscriptionPeriod(weeks: 1)), offers: [])
    static let plus = SubscriptionTerms(group: "vip", level: 1, period: SubscriptionPeriod(months: 1), introOffer: nil, offers: [])
    static let terms = ["monthly": monthly, "plus": plus]
    static let levels = terms.mapValues(\.level)

    private func firstCharge() -> SubscriptionCharge {
        SubscriptionCharge(existing: nil, latest: nil, id: "1", account: "alice", productId: "monthly", terms: Self.monthly,
                           webOrder: "w1", at: Self.start)
    }

    @Test("a payment's plan: nothing in the group charges; the same product is owned; a higher level upgrades; a lower one waits for the renewal")
    func plan() {
        let chain = firstCharge().chain
        #expect(SubscriptionPlan(current: nil, productId: "monthly", terms: Self.monthly, levels: Self.levels) == .charge)
        #expect(SubscriptionPlan(current: chain, productId: "monthly", terms: Self.monthly, levels: Self.levels) == .owned(originalTransactionId: "1"))
        #expect(SubscriptionPlan(current: chain, productId: "plus", terms: Self.plus, levels: Self.levels) == .upgrade)
        var onPlus = chain
        onPlus.productId = "plus"
        #expect(SubscriptionPlan(current: onPlus, productId: "monthly", terms: Self.monthly, levels: Self.levels) == .changeAtRenewal)
        var over = chain
        over.expirationIntent = ExpirationIntent.cancelled
        #expect(SubscriptionPlan(current: over, productId: "monthly", terms: Self.monthly, levels: Self.levels) == .charge)
    }

    @Test("a first charge takes the intro offer once: SUBSCRIBED/INITIAL_BUY, a trial until its end; a resubscription gets none")
    func firstChargeAndResubscription() {
        let charge = firstCharge()
        let trialEnd = SubscriptionPeriod(weeks: 1).end(from: Self.start)
        #expect(charge.details == TransactionDetails(expiresDate: trialEnd, offer: .trial, webOrderLineItemId: "w1"))
        #expect(charge.chain.dueAt == trialEnd && charge.chain.introLeft == 0)
        #expect(charge.news.kind == .subscribed && charge.news.subtype == .initialBuy && charge.news.transactionId == "1")
        var lapsed = charge.chain
        lapsed.expirationIntent = ExpirationIntent.cancelled
        let again = SubscriptionCharge(existing: lapsed, latest: nil, id: "9", account: "alice", productId: "monthly", terms: Self.monthly,
                                       webOrder: "w9", at: Self.start.addingTimeInterval(90 * Self.day))
        #expect(again.chain.originalTransactionId == "1" && again.details.offer == nil)
        #expect(again.news.kind == .subscribed && again.news.subtype == .resubscribe)
    }

    @Test("an upgrade starts now and ends the latest charge with the share of its period left refunded")
    func upgrade() {
        let chain = firstCharge().chain
        let halfway = Self.start.addingTimeInterval(chain.expiresAt.timeIntervalSince(Self.start) / 2)
        let upgrade = SubscriptionCharge(existing: chain, latest: (Self.start, TransactionDetails(expiresDate: chain.expiresAt)), id: "2",
                                         account: "alice", productId: "plus", terms: Self.plus, webOrder: "w2", at: halfway)
        #expect(upgrade.endedLatest?.cancellationDate == halfway && upgrade.endedLatest?.refundedShare == 0.5)
        #expect(upgrade.chain.productId == "plus" && upgrade.chain.latestTransactionId == "2")
        #expect(upgrade.chain.expiresAt == SubscriptionPeriod(months: 1).end(from: halfway))
        #expect(upgrade.news.kind == .didChangeRenewalPref && upgrade.news.subtype == .upgrade)
    }

    @Test("at its due date: a renewal for the product it renews as, from the period's end, DID_RENEW with its web order")
    func renewal() throws {
        var chain = firstCharge().chain
        chain = try #require(chain.changingAtRenewal(to: "plus"))
        let step = chain.dueStep(now: chain.expiresAt, terms: Self.terms, billingFailures: 0, webOrder: "w2")
        guard case let .renewed(productId, start, details, recovered) = step.outcome else { Issue.record("not renewed: \(step.outcome)"); return }
        #expect(productId == "plus" && start == chain.expiresAt && !recovered)
        #expect(details.webOrderLineItemId == "w2" && details.expiresDate == SubscriptionPeriod(months: 1).end(from: chain.expiresAt))
        #expect(step.chain.productId == "plus" && step.chain.renewsAs == "plus" && step.chain.dueAt == details.expiresDate)
        let news = try #require(step.notification(transaction: "2"))
        #expect(news.kind == .didRenew && news.subtype == nil && news.transactionId == "2" && news.webOrderLineItemId == "w2")
    }

    @Test("billing fails: the first failure tells of the grace period, daily retries say nothing, the grace period's end is told, and after 60 days it expires for a billing error")
    func billingRetry() throws {
        let expiry = firstCharge().chain.expiresAt
        var chain = firstCharge().chain
        var told: [String] = []
        var step = chain.dueStep(now: expiry, terms: Self.terms, billingFailures: 99, webOrder: "unused")
        while true {
            if let news = step.notification() { told.append(news.kind.rawValue + (news.subtype.map { "/" + $0.rawValue } ?? "")) }
            chain = step.chain
            guard let due = chain.dueAt else { break }
            step = chain.dueStep(now: due, terms: Self.terms, billingFailures: 99, webOrder: "unused")
        }
        #expect(told == ["DID_FAIL_TO_RENEW/GRACE_PERIOD", "GRACE_PERIOD_EXPIRED", "EXPIRED/BILLING_RETRY"])
        #expect(chain.expirationIntent == ExpirationIntent.billingError && chain.retryUntil == nil && chain.graceUntil == nil)
        #expect(chain.status(offer: nil).state == .expired)
    }

    @Test("billing fails with no grace period (the app did not opt in): billing retry at once with the service off, DID_FAIL_TO_RENEW without GRACE_PERIOD, no GRACE_PERIOD_EXPIRED, expired after 60 days")
    func billingRetryWithoutGrace() throws {
        var terms = Self.terms
        terms["monthly"]?.gracePeriod = false
        var chain = firstCharge().chain
        var step = chain.dueStep(now: chain.expiresAt, terms: terms, billingFailures: 99, webOrder: "unused")
        #expect(step.chain.graceUntil == nil && step.chain.status(offer: nil).state == .billingRetry)
        #expect(!step.chain.status(offer: nil).entitles)
        var told: [String] = []
        while true {
            if let news = step.notification() {
                told.append(news.kind.rawValue + (news.subtype.map { "/" + $0.rawValue } ?? ""))
                #expect(news.graceUntil == nil)
            }
            chain = step.chain
            guard let due = chain.dueAt else { break }
            step = chain.dueStep(now: due, terms: terms, billingFailures: 99, webOrder: "unused")
        }
        #expect(told == ["DID_FAIL_TO_RENEW", "EXPIRED/BILLING_RETRY"])
        #expect(chain.expirationIntent == ExpirationIntent.billingError)
    }

    @Test("a charge that goes through during billing retry renews from that day (DID_RENEW/BILLING_RECOVERY)")
    func recovery() throws {
        let first = firstCharge().chain
        let failed = first.dueStep(now: first.expiresAt, terms: Self.terms, billingFailures: 2, webOrder: "unused").chain
        #expect(failed.status(offer: nil).state == .gracePeriod && failed.failuresLeft == 1)
        let again = failed.dueStep(now: try #require(failed.dueAt), terms: Self.terms, billingFailures: 2, webOrder: "unused").chain
        let due = try #require(again.dueAt)
        let step = again.dueStep(now: due, terms: Self.terms, billingFailures: 2, webOrder: "w2")
        guard case let .renewed(_, start, _, recovered) = step.outcome else { Issue.record("not renewed: \(step.outcome)"); return }
        #expect(recovered && start == due)
        #expect(step.notification(transaction: "2")?.subtype == .billingRecovery)
        #expect(step.chain.retryUntil == nil && step.chain.graceUntil == nil && step.chain.failuresLeft == nil)
    }

    @Test("cancelled, or no longer sold: it expires at its due date, with Apple's intent")
    func expiry() throws {
        let chain = firstCharge().chain
        let cancelled = try #require(chain.settingAutoRenew(false))
        #expect(chain.settingAutoRenew(true) == nil)  // already on: nothing to tell
        let step = cancelled.dueStep(now: cancelled.expiresAt, terms: Self.terms, billingFailures: 0, webOrder: "unused")
        #expect(step.outcome == .expired(.voluntary) && step.chain.expirationIntent == ExpirationIntent.cancelled && step.chain.dueAt == nil)
        let unsold = chain.dueStep(now: chain.expiresAt, terms: [:], billingFailures: 0, webOrder: "unused")
        #expect(unsold.chain.expirationIntent == ExpirationIntent.productUnavailable)
    }

    @Test("a refund revokes the chain once, and marks the charge with its date and reason")
    func refund() throws {
        let chain = firstCharge().chain
        let at = Self.start.addingTimeInterval(Self.day)
        let revoked = try #require(chain.revoked(at: at))
        #expect(revoked.status(offer: nil).state == .revoked && revoked.dueAt == nil)
        #expect(revoked.revoked(at: at) == nil)
        let details = TransactionDetails(webOrderLineItemId: "w1").refunded(at: at, reason: 1)
        #expect(details.cancellationDate == at && details.cancellationReason == 1 && details.webOrderLineItemId == "w1")
    }
}

/// Apple's rules for a payment, on values: what is decided when it is added, and what its step becomes when taken.
@Suite("The store's payment rules as functions: a payment's plan when added, its step's outcome when taken")
struct PaymentRulesTests {
    static let due = Date(timeIntervalSince1970: 1_800_000_000)

    private func plan(owned: String? = nil, subscription: SubscriptionPlan? = nil, fate: PaymentFate = .charged,
                      refundAfter: Double? = nil) -> (StorePlan, String?, asked: Bool) {
        var asked = false
        let (plan, original) = StorePlan.forPayment(due: Self.due, owned: owned, subscription: subscription,
                                                    fate: { asked = true; return fate }, refundAfter: { refundAfter })
        return (plan, original, asked)
    }

    @Test("what the account owns is bought again for free, and no fault is asked; a lower level waits for the renewal")
    func owned() {
        let rebuy = plan(owned: "7", fate: .fails)
        #expect(rebuy.0.steps == [.init(at: Self.due, .purchased)] && rebuy.1 == "7" && !rebuy.asked)
        let subscribed = plan(subscription: .owned(originalTransactionId: "5"))
        #expect(subscribed.1 == "5" && !subscribed.asked)
        let lower = plan(subscription: .changeAtRenewal)
        #expect(lower.0.steps == [.init(at: Self.due, .failed, error: .changesAtRenewal)] && !lower.asked)
    }

    @Test("a charge's fate: Ask to Buy waits for the parent, an interrupted payment completes as a new transaction, a refund follows a charge")
    func fates() {
        let declined = plan(fate: .askToBuy(declined: true)).0.steps
        #expect(declined.map(\.state) == [.deferred, .failed] && declined.last?.error == .declined)
        #expect(declined.last?.date == Self.due.addingTimeInterval(MockPaymentQueue.askToBuyDecision))
        let interrupted = plan(fate: .failedThenPurchased, refundAfter: 30).0.steps
        #expect(interrupted.map(\.state) == [.failed, .purchased] && interrupted.last?.spawns == true)  // no refund of a spawned half
        let refunded = plan(refundAfter: 30).0.steps
        #expect(refunded.count == 2 && refunded.last?.refunds == true && refunded.last?.date == Self.due.addingTimeInterval(30))
        #expect(plan(subscription: .upgrade, fate: .userCancels).0.steps == [.init(at: Self.due, .failed, error: .cancelled)])
    }

    @Test("a step taken: a kept product owned by then is a free re-buy; a subscription charges, re-buys or changes at renewal; ONE_TIME_CHARGE for the rest")
    func decisions() {
        let purchased = StorePlan.Step(at: Self.due, .purchased)
        let oneTime = PaymentDecision(step: purchased, original: nil, isSubscription: false, owned: nil, plan: nil)
        #expect(oneTime.state == .purchased && oneTime.isOneTimeCharge && oneTime.subscription == .none && oneTime.charges)
        let rebuy = PaymentDecision(step: purchased, original: nil, isSubscription: false, owned: "3", plan: nil)
        #expect(rebuy.original == "3" && !rebuy.isOneTimeCharge && !rebuy.charges)
        let failed = PaymentDecision(step: .init(at: Self.due, .failed, error: .paymentFailed), original: nil, isSubscription: false, owned: "3", plan: nil)
        #expect(failed.original == nil && !failed.isOneTimeCharge)
        let charge = PaymentDecision(step: purchased, original: nil, isSubscription: true, owned: nil, plan: .upgrade)
        #expect(charge.subscription == .charge && !charge.isOneTimeCharge && charge.charges)
        let again = PaymentDecision(step: purchased, original: nil, isSubscription: true, owned: nil, plan: .owned(originalTransactionId: "5"))
        #expect(again.subscription == .boughtAgain(original: "5") && again.original == "5" && !again.charges)
        let lower = PaymentDecision(step: purchased, original: nil, isSubscription: true, owned: nil, plan: .changeAtRenewal)
        #expect(lower.state == .failed && lower.error == .changesAtRenewal && lower.subscription == .changeAtRenewal)
    }
}

/// Restore Purchases and refunds by Apple's rules, on values.
@Suite("The store's restore and refund rules as functions")
struct RestoreRulesTests {
    private func charge(_ id: String, _ productId: String, original: String? = nil, refunded: Bool = false) -> RestoreRule.Charge {
        RestoreRule.Charge(id: id, productId: productId, original: original, orderId: "order-\(id)", refunded: refunded)
    }

    @Test("a non-consumable is owned by its first unrefunded charge; a chain by its latest charge, revoked when that was refunded")
    func owned() {
        let owned = RestoreRule.owned([charge("1", "noads", refunded: true), charge("2", "noads"), charge("3", "noads", original: "2"),
                                       charge("4", "vip"), charge("5", "vip", original: "4"), charge("6", "plus"), charge("7", "plus", original: "6", refunded: true)],
                                      nonConsumables: ["noads"])
        #expect(owned.map(\.charge) == ["2", "5", "7"])
        #expect(owned.map(\.original) == ["2", "4", "6"])
        let outcomes = RestoreRule.outcomes(owned, openHere: [:], paidElsewhere: [])
        #expect(outcomes.count == 2)  // the refunded chain is not restored
    }

    @Test("what this device's queue holds is answered again; what another device has not finished is left to it")
    func held() {
        let owned = RestoreRule.owned([charge("1", "noads"), charge("2", "gold")], nonConsumables: ["noads", "gold"])
        let open = StoreTransaction(id: "9", productId: "noads", state: .restored, applicationUsername: nil, date: Date(), originalTransactionId: "1")
        let outcomes = RestoreRule.outcomes(owned, openHere: ["noads": [open]], paidElsewhere: ["gold"])
        #expect(outcomes == [.held([open])])
    }

    @Test("a refund takes the charge: a subscription's first transaction of its web order line item, anything else's original")
    func refundedCharge() {
        #expect(TransactionDetails.charge(repeatedBy: "5", original: "4", webOrder: "w", chargeOfWebOrder: "3") == "3")
        #expect(TransactionDetails.charge(repeatedBy: "5", original: "4", webOrder: nil, chargeOfWebOrder: nil) == "4")
        #expect(TransactionDetails.charge(repeatedBy: "5", original: nil, webOrder: nil, chargeOfWebOrder: nil) == "5")
    }
}
