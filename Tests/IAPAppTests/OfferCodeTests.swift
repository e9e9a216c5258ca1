import Foundation
import IAPApp
import IAPCore
import MockBackend
@testable import MockStore
import Testing

/// Offer codes (issue 30, item 4): a code redeemed by the Apple ID gives its offer's periods; what it starts arrives in
/// the app with no order, no intent and no payment of the app's, and Apple tells OFFER_REDEEMED.
@Suite("Offer codes: redeemed outside the app, the offer's periods, OFFER_REDEEMED, the unclaimed path")
struct OfferCodeTests {
    static let monthly = "com.iapsim.vip.monthly"
    static let day: TimeInterval = 86_400

    private func kinds(_ app: Harness) throws -> [String] {
        try app.parties.store.database.recentNotifications(limit: 100).reversed().map {
            $0.notification.kind.rawValue + ($0.notification.subtype.map { "/" + $0.rawValue } ?? "")
        }
    }

    @Test("a new subscriber's code: a purchased transaction naming no order, a free month at the offer, credited to the one logged in; OFFER_REDEEMED/INITIAL_BUY; then the regular price")
    func newSubscriber() throws {
        let app = try Harness(user: "carol")
        app.advance(0.5)
        let redeemed = app.parties.store.redeem(code: "vip spring", account: "carol")
        let transaction = try #require(try redeemed.get())
        #expect(transaction.state == .purchased && transaction.applicationUsername == nil && transaction.paymentId == nil)
        app.advance(5)
        let details = try #require(try app.storeDetails([transaction.id])[transaction.id])
        #expect(details.offer == .code && details.offerId == "VIPSPRING")
        #expect(details.expiresDate == SubscriptionPeriod(months: 1).end(from: transaction.date))
        #expect(try app.credits().map(\.user) == ["carol"])
        #expect(try app.storeTransactions().allSatisfy(\.finished))
        #expect(try kinds(app) == ["OFFER_REDEEMED/INITIAL_BUY"])
        let due = try #require(app.parties.store.nextSubscriptionEvent())
        app.advance(due.timeIntervalSince(app.timers.now) + 5)
        let renewal = try #require(try app.charges().last)
        #expect(try app.storeDetails([renewal.transaction.id])[renewal.transaction.id]?.offer == nil)
        #expect(try kinds(app) == ["OFFER_REDEEMED/INITIAL_BUY", "DID_RENEW"])
    }

    @Test("the App Store's refusals: a code no offer has, and a second redemption of the offer by the same Apple ID; nothing is charged")
    func refusals() throws {
        let app = try Harness(user: "carol")
        app.advance(0.5)
        #expect(app.parties.store.redeem(code: "NOPE", account: "carol") == .failure(.invalidOfferCode))
        _ = app.parties.store.redeem(code: "VIPSPRING", account: "carol")
        app.advance(5)
        let charges = try app.charges().count
        #expect(app.parties.store.redeem(code: "vipspring", account: "carol") == .failure(.offerCodeUsed))
        app.advance(5)
        #expect(try app.charges().count == charges)
    }

    @Test("a lapsed subscriber resubscribes at the offer in the same chain (OFFER_REDEEMED/RESUBSCRIBE); a current one gets it from the next renewal, with no transaction now")
    func lapsedAndCurrent() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.buy(Self.monthly)
        let original = try #require(app.parties.store.subscriptions(account: "alice").first?.originalTransactionId)
        // Current: nothing now; the next renewal is the offer's ¥15 month (pay as you go, 2 periods).
        #expect(try app.parties.store.redeem(code: "VIPHALF", account: "alice").get() == nil)
        let due = try #require(app.parties.store.nextSubscriptionEvent())
        app.advance(due.timeIntervalSince(app.timers.now) + 5)
        let renewal = try #require(try app.charges().last)
        let renewed = try #require(try app.storeDetails([renewal.transaction.id])[renewal.transaction.id])
        #expect(renewed.offer == .code && renewed.offerId == "VIPHALF")
        #expect(try kinds(app).contains("OFFER_REDEEMED"))
        // Lapsed: cancelled and over, then a code of another offer resubscribes the same chain.
        app.parties.store.setAutoRenew(false, originalTransactionId: original)
        app.advance(70 * Self.day)
        #expect(app.parties.store.subscriptions(account: "alice").first?.state == .expired)
        let back = try #require(try app.parties.store.redeem(code: "VIPSPRING", account: "alice").get())
        app.advance(5)
        #expect(try app.storeRecords().first { $0.transaction.id == back.id }?.transaction.originalTransactionId == original)
        #expect(try kinds(app).last == "OFFER_REDEEMED/RESUBSCRIBE")
        #expect(app.parties.store.subscriptions(account: "alice").first?.state == .active)
    }

    @Test("in the app: o past the promotional offers opens StoreKit's redemption sheet; the typed code is redeemed for the device's Apple ID; a code no offer has, or a second one of the offer, is said on the HUD in both languages")
    func redemptionSheet() throws {
        let app = try Harness(user: "carol")
        app.advance(0.5)
        app.select(Self.monthly)
        app.press(.char("o"), .char("o"))
        #expect(app.state.offerChoices[Self.monthly] == "vip_free_month")
        app.press(.char("o"))
        #expect(app.screen().contains("Offer code:") && app.state.offerChoices.isEmpty)
        app.type("vip")
        app.press(.char("q"), .backspace, .char(" "), .char("s"), .char("p"), .char("r"), .char("i"), .char("n"), .char("g"))
        #expect(app.screen().contains("vip spring"))
        app.press(.enter)
        app.advance(5)
        #expect(app.parties.store.subscriptions(account: "carol").first?.state == .active)
        #expect(try app.credits().map(\.user) == ["carol"])
        app.select(Self.monthly)
        app.press(.char("o"), .char("o"), .char("o"))
        app.type("VIPSPRING")
        app.press(.enter)
        #expect(app.screen().contains("This offer was redeemed already"))
        app.press(.escape)
        // A product without promotional offers: o opens the sheet at once.
        app.select("com.iapsim.coins.60")
        app.press(.char("o"))
        app.type("NOPE")
        app.press(.enter)
        #expect(app.screen().contains("This code is not valid"))
        app.press(.char("l"))
        #expect(app.screen().contains("此优惠码无效"))
        app.press(.escape, .char("o"))
        app.press(.escape)
        #expect(app.state.modal == nil)
        #expect(try app.charges().count == 1)
    }
}
