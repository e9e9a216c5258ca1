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
