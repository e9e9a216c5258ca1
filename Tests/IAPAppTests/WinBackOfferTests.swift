import AppleVocabulary
import AppleWire
import Foundation
import IAPApp
import IAPCore
@testable import MockStore
import Testing

/// Win-back offers (issue 30, item 5): for an Apple ID whose subscription churned, by App Store Connect's customer
/// eligibility; StoreKit 2 takes one with its `winBackOffer(_:)` purchase option, StoreKit 1 has none.
@Suite("Win-back offers: who may take one, the product list, StoreKit 2's purchase option, offerType 4")
struct WinBackOfferTests {
    static let monthly = "com.iapsim.vip.monthly"
    static let day: TimeInterval = 86_400
    static let epoch = Date(timeIntervalSince1970: 1_800_000_000)

    private func standing(lapsedDaysAgo: Double?, paidDays: Int = 31, lastWinBackDaysAgo: Double? = nil, retrying: Bool = false)
        -> WinBackRules.Standing {
        WinBackRules.Standing(lapsedAt: lapsedDaysAgo.map { Self.epoch.addingTimeInterval(-$0 * Self.day) }, retrying: retrying,
                              paidDays: paidDays, lastWinBack: lastWinBackDaysAgo.map { Self.epoch.addingTimeInterval(-$0 * Self.day) })
    }

    @Test("App Store Connect's rules: churned, paid long enough, within the window since it ended, and long enough since the last win-back")
    func rules() {
        let rules = WinBackRules(paidMonths: 1, monthsSinceLapsed: 1...24, waitMonths: 12)
        #expect(rules.admits(standing(lapsedDaysAgo: 40), at: Self.epoch))
        #expect(!rules.admits(standing(lapsedDaysAgo: nil), at: Self.epoch), "still subscribed")
        #expect(!rules.admits(standing(lapsedDaysAgo: 40, retrying: true), at: Self.epoch), "Apple still retries the renewal")
        #expect(!rules.admits(standing(lapsedDaysAgo: 40, paidDays: 7), at: Self.epoch), "a week paid")
        #expect(!rules.admits(standing(lapsedDaysAgo: 10), at: Self.epoch), "lapsed less than a month ago")
        #expect(!rules.admits(standing(lapsedDaysAgo: 800), at: Self.epoch), "lapsed over two years ago")
        #expect(!rules.admits(standing(lapsedDaysAgo: 40, lastWinBackDaysAgo: 200), at: Self.epoch), "a win-back seven months ago")
        #expect(rules.admits(standing(lapsedDaysAgo: 40, lastWinBackDaysAgo: 400), at: Self.epoch))
    }

    /// alice subscribes (a free week), pays one month, turns auto-renew off and lets it end.
    private func lapsedSubscriber(_ storeKit: StoreKitMode) throws -> (Harness, original: String) {
        let app = try Harness(user: "alice", storeKit: storeKit)
        app.advance(0.5)
        app.buy(Self.monthly)
        let original = try #require(app.parties.store.subscriptions(account: "alice").first?.originalTransactionId)
        app.advance(8 * Self.day)
        app.parties.store.setAutoRenew(false, originalTransactionId: original)
        app.advance(40 * Self.day)
        #expect(app.parties.store.subscriptions(account: "alice").first?.state == .expired)
        return (app, original)
    }

    @Test("StoreKit 2: the lapsed subscriber sees the offer on the product list, buys at it in the same chain (OFFER_REDEEMED/RESUBSCRIBE, offerType 4), then cannot take it again for a year")
    func storeKit2() throws {
        let (app, original) = try lapsedSubscriber(.two)
        #expect(app.parties.store.subscriptions(account: "alice").first?.eligibleWinBackOfferIds == ["vip_winback"])
        #expect(app.screen(width: 100).contains("Welcome back: ¥15/month ×2"))
        app.buy(Self.monthly)
        let charge = try #require(try app.charges().last)
        #expect(charge.transaction.productId == Self.monthly && charge.transaction.originalTransactionId == original)
        let details = try #require(try app.storeDetails([charge.transaction.id])[charge.transaction.id])
        #expect(details.offer == .winBack && details.offerId == "vip_winback")
        // One month at the offer's price, from the charge a moment after the payment was added.
        let expires = try #require(details.expiresDate)
        #expect(abs(expires.timeIntervalSince(SubscriptionPeriod.month.end(from: charge.transaction.date))) < 10)
        let kinds = try app.parties.store.database.recentNotifications(limit: 100).map(\.notification)
        #expect(kinds.first?.kind == .offerRedeemed && kinds.first?.subtype == .resubscribe)
        let records = app.appleRecords
        let signed = JWSTransaction(try #require(try records.transaction(charge.transaction.id)), signedAt: app.timers.now)
        #expect(signed.offerType == 4 && signed.offerIdentifier == "vip_winback")
        // The customer bought it, in the chain it had: a purchase, not a renewal the App Store made.
        #expect(signed.transactionReason == "PURCHASE")
        // Its price, not the catalog's: ¥15 a month for two months.
        #expect(signed.price == 15_000 && signed.currency == "CNY" && signed.offerDiscountType == "PAY_AS_YOU_GO" && signed.offerPeriod == "P2M")
        let next = JWSRenewalInfo(try #require(try records.subscription(original: original)), signedAt: app.timers.now)
        #expect(next.renewalPrice == 15_000, "the second month is the offer's too")
        #expect(next.offerType == 4 && next.offerIdentifier == "vip_winback" && next.offerDiscountType == "PAY_AS_YOU_GO" && next.offerPeriod == "P2M")
        // A lapse of about forty days is shorter than Apple's sixty: the series began with the first free week.
        let firstCharge = try #require(try app.charges().first { $0.transaction.originalTransactionId == nil && $0.transaction.id == original })
        #expect(next.recentSubscriptionStartDate == AppleDate.milliseconds(firstCharge.transaction.date))
        // `iapsim state` says it too, though the receipt has no field for it (found by a newcomer's walk).
        #expect(try StateReport.json(for: app.directory, catalog: shippedCatalog).contains("\"winBackOfferId\" : \"vip_winback\""))
        #expect(try app.credits().filter { $0.transactionId == charge.transaction.id }.map(\.user) == ["alice"])
        // The second period is the offer's too; the third the regular price.
        let second = try #require(app.parties.store.nextSubscriptionEvent())
        app.advance(second.timeIntervalSince(app.timers.now) + 5)
        let renewal = try #require(try app.charges().last)
        #expect(try app.storeDetails([renewal.transaction.id])[renewal.transaction.id]?.offer == .winBack)
        #expect(JWSTransaction(try #require(try records.transaction(renewal.transaction.id)), signedAt: app.timers.now).transactionReason == "RENEWAL")
        let third = try #require(app.parties.store.nextSubscriptionEvent())
        app.advance(third.timeIntervalSince(app.timers.now) + 5)
        let regular = try #require(try app.charges().last)
        #expect(regular.transaction.id != renewal.transaction.id)
        #expect(try app.storeDetails([regular.transaction.id])[regular.transaction.id]?.offer == nil)
        // Lapsed again within the year: no second win-back offer, and the product list says the regular price.
        app.parties.store.setAutoRenew(false, originalTransactionId: original)
        app.advance(70 * Self.day)
        #expect(app.parties.store.subscriptions(account: "alice").first?.state == .expired)
        #expect(app.parties.store.subscriptions(account: "alice").first?.eligibleWinBackOfferIds == [])
        #expect(!app.screen(width: 100).contains("Welcome back"))
    }

    @Test("StoreKit 1 has no purchase option for it: the product list shows none and buying again charges the regular price")
    func storeKit1() throws {
        let (app, _) = try lapsedSubscriber(.one)
        #expect(app.parties.store.subscriptions(account: "alice").first?.eligibleWinBackOfferIds == ["vip_winback"])
        #expect(!app.screen(width: 100).contains("Welcome back"))
        app.buy(Self.monthly)
        let charge = try #require(try app.charges().last)
        #expect(try app.storeDetails([charge.transaction.id])[charge.transaction.id]?.offer == nil)
    }

    @Test("Apple's refusals, charging nothing: an offer the product does not have, and an Apple ID not eligible (a free trial only)")
    func refusals() throws {
        let app = try Harness(user: "carol", storeKit: .two)
        app.advance(0.5)
        app.buy(Self.monthly)
        let original = try #require(app.parties.store.subscriptions(account: "carol").first?.originalTransactionId)
        app.parties.store.setAutoRenew(false, originalTransactionId: original)
        app.advance(40 * Self.day)
        #expect(app.parties.store.subscriptions(account: "carol").first?.eligibleWinBackOfferIds == [])
        #expect(!app.screen(width: 100).contains("Welcome back"))
        let charges = try app.charges().count
        for (offer, error) in [("vip_winback", StoreError.ineligibleForOffer), ("no_such_offer", .invalidOfferIdentifier)] {
            app.parties.store.add(Payment(productId: Self.monthly, applicationUsername: nil, pressedBy: "carol", winBackOfferId: offer))
            app.advance(5)
            let failed = try #require(try app.storeRecords().last)
            #expect(failed.transaction.state == .failed && failed.transaction.error == error)
        }
        #expect(try app.charges().count == charges)
    }
}
