import AppleVocabulary
import AppleWire
import Foundation
import IAPApp
import IAPCore
@testable import MockStore
import Testing

/// Billing plans (issue 30, item 6): a one-year subscription billed monthly with a 12-month commitment. Renewals are
/// monthly; auto-renew off ends it at the commitment's end, the months left still billed; the Server API's fields of
/// version 1.21 say where each charge stands.
@Suite("Billing plans: monthly with a 12-month commitment, in StoreKit 2")
struct BillingPlanTests {
    static let yearly = "com.iapsim.vip.yearly"

    /// alice chooses the plan with `o` on Yearly VIP and buys it.
    private func committed() throws -> (Harness, StoreRecord) {
        let app = try Harness(user: "alice", storeKit: .two)
        app.advance(0.5)
        app.select(Self.yearly)
        app.press(.char("o"))
        #expect(app.screen().contains("12 months: ¥28/month (¥336)"))
        #expect(app.screen().contains("Yearly VIP"), "the names keep their column at 80 columns")
        app.press(.enter)
        app.advance(0.5)
        #expect(app.screen(width: 120).contains("Yearly VIP · ¥28/month ×12"))
        app.advance(5)
        app.press(.escape)
        return (app, try #require(try app.charges().last))
    }

    private func details(_ app: Harness, _ charge: StoreRecord) throws -> TransactionDetails {
        try #require(try app.storeDetails([charge.transaction.id])[charge.transaction.id])
    }

    /// Moves the clock past the chain's next renewal.
    private func nextRenewal(_ app: Harness) throws {
        let due = try #require(app.parties.store.nextSubscriptionEvent())
        app.advance(due.timeIntervalSince(app.timers.now) + 5)
    }

    @Test("the first month: billed a month, the commitment's first of twelve, on the wire as MONTHLY with its commitmentInfo; renewals are monthly")
    func firstMonths() throws {
        let (app, first) = try committed()
        let fields = try details(app, first)
        #expect(fields.billingPeriod == 1 && fields.offer == nil)
        let expires = try #require(fields.expiresDate), ends = try #require(fields.commitmentEndsAt)
        #expect(abs(expires.timeIntervalSince(SubscriptionPeriod.month.end(from: first.transaction.date))) < 10)
        #expect(abs(ends.timeIntervalSince(SubscriptionPeriod(months: 12).end(from: first.transaction.date))) < 10)
        let records = app.appleRecords
        let signed = JWSTransaction(try #require(try records.transaction(first.transaction.id)), signedAt: app.timers.now)
        #expect(signed.billingPlanType == "MONTHLY")
        #expect(signed.price == 28_000 && signed.currency == "CNY", "a month of the commitment costs the monthly price")
        #expect(JWSRenewalInfo(try #require(try records.subscription(original: first.transaction.id)), signedAt: app.timers.now).renewalPrice == 28_000)
        #expect(signed.commitmentInfo == JWSTransaction.CommitmentInfo(billingPeriodNumber: 1, totalBillingPeriods: 12,
                                                                         commitmentExpiresDate: AppleDate.milliseconds(ends), commitmentPrice: 336_000))
        try nextRenewal(app)
        let second = try #require(try app.charges().last)
        #expect(second.transaction.id != first.transaction.id && second.transaction.originalTransactionId == first.transaction.id)
        #expect(try details(app, second).billingPeriod == 2 && details(app, second).commitmentEndsAt == ends)
        #expect(try StateReport.json(for: app.directory, catalog: shippedCatalog).contains("\"billingPeriodNumber\" : 2"))
        #expect(try app.credits().filter { $0.user == "alice" }.count == 2)
        app.press(.char("m"))
        #expect(app.screen(width: 100).contains("Next renewal: Yearly VIP, ¥28/month"))
    }

    @Test("auto-renew off in the second month: still billed through the twelfth, cancelled until the commitment's end, then expired; the renewal info says the commitment does not renew")
    func cancelledInsideTheCommitment() throws {
        let (app, first) = try committed()
        try nextRenewal(app)
        app.parties.store.setAutoRenew(false, originalTransactionId: first.transaction.id)
        let ends = try #require(try details(app, first).commitmentEndsAt)
        let status = try #require(app.parties.store.subscriptions(account: "alice").first)
        #expect(status.state == .cancelled && status.date == ends)
        app.press(.char("m"))
        #expect(app.screen(width: 120).contains("Auto-renew is off: the commitment's months are still billed, until it ends on"))
        app.press(.escape)
        let records = app.appleRecords
        let chain = try #require(try records.subscription(original: first.transaction.id))
        let renewal = JWSRenewalInfo(chain, signedAt: app.timers.now)
        #expect(renewal.renewalBillingPlanType == "MONTHLY" && renewal.commitmentInfo?.commitmentAutoRenewStatus == 0)
        #expect(renewal.commitmentInfo?.commitmentRenewalDate == AppleDate.milliseconds(ends))
        for _ in 3...12 { try nextRenewal(app) }
        let charges = try app.charges().filter { $0.transaction.productId == Self.yearly }
        #expect(try charges.map { try details(app, $0).billingPeriod } == Array(1...12).map(Optional.some))
        try nextRenewal(app)
        #expect(app.parties.store.subscriptions(account: "alice").first?.state == .expired)
        #expect(try app.charges().filter { $0.transaction.productId == Self.yearly }.count == 12)
    }

    @Test("auto-renew on at the twelfth month: the thirteenth is the first of a new commitment, a year later")
    func renewsIntoANewCommitment() throws {
        let (app, first) = try committed()
        let ends = try #require(try details(app, first).commitmentEndsAt)
        for _ in 2...13 { try nextRenewal(app) }
        let thirteenth = try #require(try app.charges().last)
        let fields = try details(app, thirteenth)
        #expect(fields.billingPeriod == 1)
        #expect(abs(try #require(fields.commitmentEndsAt).timeIntervalSince(SubscriptionPeriod(months: 12).end(from: ends))) < 10)
    }

    @Test("a crossgrade asked for inside the commitment waits for its end: the months are billed on the plan, then the new product renews on its own period (found by a newcomer's walk)")
    func changeWaitsForTheEnd() throws {
        let (app, first) = try committed()
        try nextRenewal(app)
        app.buy("com.iapsim.vip.monthly")
        #expect(app.parties.store.subscriptions(account: "alice").first?.renewsAs == "com.iapsim.vip.monthly")
        for _ in 3...12 { try nextRenewal(app) }
        #expect(try app.charges().filter { $0.transaction.productId == Self.yearly }.count == 12)
        #expect(app.parties.store.subscriptions(account: "alice").first?.renewsAs == "com.iapsim.vip.monthly")
        try nextRenewal(app)
        let thirteenth = try #require(try app.charges().last)
        #expect(thirteenth.transaction.productId == "com.iapsim.vip.monthly" && thirteenth.transaction.originalTransactionId == first.transaction.id)
        #expect(try details(app, thirteenth).billingPeriod == nil)
        #expect(abs(try #require(try details(app, thirteenth).expiresDate).timeIntervalSince(SubscriptionPeriod.month.end(from: thirteenth.transaction.date))) < 10)
    }

    @Test("an upgrade inside the commitment takes effect at once and ends it: VIP Plus renews monthly, no longer numbered")
    func upgradeEndsTheCommitment() throws {
        let (app, first) = try committed()
        try nextRenewal(app)
        app.buy("com.iapsim.vip.plus")
        let upgrade = try #require(try app.charges().last)
        #expect(upgrade.transaction.productId == "com.iapsim.vip.plus" && upgrade.transaction.originalTransactionId == first.transaction.id)
        try nextRenewal(app)
        let renewal = try #require(try app.charges().last)
        let renewed = try details(app, renewal)
        #expect(renewal.transaction.productId == "com.iapsim.vip.plus" && renewed.billingPeriod == nil)
    }

    @Test("StoreKit 1 has no billing plan option: o on Yearly VIP opens the redemption sheet, and a purchase is billed for the year")
    func storeKit1() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.select(Self.yearly)
        app.press(.char("o"))
        #expect(app.state.keyContext == .redeemSheet)
        app.press(.escape)
        app.buy(Self.yearly)
        let charge = try #require(try app.charges().last)
        let fields = try details(app, charge)
        #expect(fields.billingPeriod == nil)
        #expect(abs(try #require(fields.expiresDate).timeIntervalSince(SubscriptionPeriod.year.end(from: charge.transaction.date))) < 10)
        // A product sold with billing plans: the renewal says its plan too, as the charge does.
        let records = app.appleRecords
        let chain = try #require(try records.subscription(original: charge.transaction.id))
        #expect(JWSTransaction(chain.latest, signedAt: app.timers.now).billingPlanType == "BILLED_UPFRONT")
        #expect(JWSRenewalInfo(chain, signedAt: app.timers.now).renewalBillingPlanType == "BILLED_UPFRONT")
    }

    @Test("a .storekit file's billingPlans: MONTHLY on a one-year subscription is sold; on another period, turned off or of an unknown type it is named and not sold")
    func storeKitFile() throws {
        let scratch = Scratch()
        func plans(_ period: String, _ plans: String) throws -> (CommitmentPlan?, [String]) {
            let path = try scratch.write("""
                {"subscriptionGroups": [{"id": "G", "name": "VIP", "subscriptions": [
                  {"displayPrice": "298", "productID": "vip.year", "recurringSubscriptionPeriod": "\(period)", "type": "RecurringSubscription",
                   "localizations": [{"locale": "en_US", "displayName": "VIP", "description": "VIP"}], "billingPlans": [\(plans)]}]}],
                 "settings": {"_storefront": "CHN"}, "version": {"major": 6, "minor": 0}}
                """, named: "plans.storekit")
            let loaded = try CatalogLoader.importCatalog(path: path)
            return (loaded.products.first?.subscription?.monthlyCommitment, loaded.warnings)
        }
        let monthly = #"{"billingPlanType": "MONTHLY", "displayPrice": "28", "commitmentDisplayPrice": "336", "internalID": "1", "isEnabled": true}"#
        let (sold, warnings) = try plans("P1Y", monthly + #", {"billingPlanType": "BILLED_UPFRONT", "displayPrice": "298"}"#)
        #expect(sold == CommitmentPlan(monthlyPrice: Localized("¥28"), totalPrice: Localized("¥336")))
        #expect(sold?.totalMilliunits == 336_000)
        #expect(warnings.contains { $0.contains("MONTHLY is sold to StoreKit 2 apps") })
        #expect(!warnings.contains { $0.contains("billingPlans: not used") })
        let (monthlyOnMonth, onMonth) = try plans("P1M", monthly)
        #expect(monthlyOnMonth == nil && onMonth.contains { $0.contains("is for one-year subscriptions") })
        let (off, offNotes) = try plans("P1Y", monthly.replacingOccurrences(of: "true", with: "false"))
        #expect(off == nil && offNotes.contains { $0.contains("turned off") })
        let (_, upfront) = try plans("P1Y", #"{"billingPlanType": "BILLED_UPFRONT", "displayPrice": "250"}"#)
        #expect(upfront.contains { $0.contains("BILLED_UPFRONT at ¥250") || $0.contains("BILLED_UPFRONT at 250") })
        let (_, unknown) = try plans("P1Y", #"{"billingPlanType": "WEEKLY", "displayPrice": "9"}"#)
        #expect(unknown.contains { $0.contains("billingPlanType \"WEEKLY\" not known") })
    }
}
