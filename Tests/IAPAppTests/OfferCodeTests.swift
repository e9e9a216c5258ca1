import Foundation
import IAPApp
import IAPCore
import IAPUI
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

    @Test("what the subscriber sees of a code: its free month reads as a trial, and a current subscriber's next renewal names the offer's price (found by a newcomer's walk)")
    func seenBySubscriber() throws {
        let app = try Harness(user: "carol")
        app.advance(0.5)
        _ = app.parties.store.redeem(code: "VIPSPRING", account: "carol")
        app.advance(5)
        #expect(app.parties.store.subscriptions(account: "carol").first?.state == .trial)
        let current = try subscriberRedeemed("VIPHALF")
        // How long the offer's price lasts, counting the next renewal (found by QA: "¥15/month, then ¥30/month" said not).
        #expect(current.screen(width: 100).contains("Next renewal: Monthly VIP, ¥15/month for 2 months, then ¥30/month"), "\(current.screen(width: 100))")
        current.press(.char("l"))
        #expect(current.screen(width: 100).contains("¥15/月,共2个月,之后 ¥30/月"), "\(current.screen(width: 100))")
        current.press(.char("l"))
        let due = try #require(current.parties.store.nextSubscriptionEvent())
        current.advance(due.timeIntervalSince(current.timers.now) + 5)
        #expect(current.screen(width: 100).contains("Next renewal: Monthly VIP, ¥15/month for 1 month, then ¥30/month"), "\(current.screen(width: 100))")
    }

    /// alice, a paying subscriber of Monthly VIP, redeems `code` in the App Store, then opens Manage subscriptions.
    private func subscriberRedeemed(_ code: String) throws -> Harness {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.buy(Self.monthly)
        let due = try #require(app.parties.store.nextSubscriptionEvent())
        app.advance(due.timeIntervalSince(app.timers.now) + 5)
        #expect(try app.parties.store.redeem(code: code, account: "alice").get() == nil)
        app.advance(1)
        app.press(.escape, .char("m"))
        return app
    }

    @Test("a free month redeemed by a current subscriber: the next renewal is free for that month, then the regular price, not 'Free/month' as if free for good (found by QA)")
    func freeMonthRedeemedBySubscriber() throws {
        let app = try subscriberRedeemed("VIPSPRING")
        let screen = app.screen(width: 100)
        #expect(screen.contains("Next renewal: Monthly VIP, free for 1 month, then ¥30/month") && !screen.contains("Free/month"), "\(screen)")
        let zh = app.session.screen(width: 100, lang: .zh).text
        #expect(zh.contains("下次续期:月度会员,免费1个月,之后 ¥30/月"), "\(zh)")
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
        // The customer's own purchase in the chain, not a renewal the App Store made (found by a trainer's walk).
        let said = app.session.timeline.entries(.en).map(\.text)
        #expect(said.contains { $0.contains("tx \(renewal.transaction.id) purchased, a renewal of \(original)") }, "\(said)")
        #expect(said.contains { $0.contains("tx \(back.id) purchased") && !$0.contains("a renewal") }, "\(said)")
        // VIPSPRING's month is free: its state is a trial's, but it is told as the offer's free month, not the trial an
        // Apple ID has once (found by a trainer's walk: "Trial until" read as a second free trial).
        let status = try #require(app.parties.store.subscriptions(account: "alice").first)
        #expect(status.state == .trial)
        #expect(status.line(.en).hasPrefix("Free until "), "\(status.line(.en))")
        #expect(status.line(.zh).hasPrefix("免费至 "), "\(status.line(.zh))")
    }

    /// carol on Monthly VIP, `o` pressed twice: past its first promotional offer to the free one.
    private static func carolOnTheFreeOffer() throws -> Harness {
        let app = try Harness(user: "carol")
        app.advance(0.5)
        app.select(monthly)
        app.press(.char("o"), .char("o"))
        #expect(app.state.offerChoices[monthly] == "vip_free_month")
        return app
    }

    @Test("a free promotional offer reads as the intro offer does, \"Free for 1 month\", not \"Free/month ×1\" (found by QA)")
    func freeOfferWords() throws {
        let app = try Self.carolOnTheFreeOffer()
        let screen = app.screen(width: 120)
        #expect(screen.contains("vip_free_month: Free for 1 month") && !screen.contains("Free/month"), "\(screen)")
        app.press(.char("l"))
        // Free, not a trial: 试用 is the introductory trial's word, which the Apple ID has once (found by a trainer's walk).
        #expect(app.screen(width: 120).contains("vip_free_month: 免费1个月"), "\(app.screen(width: 120))")
        #expect(!app.screen(width: 120).contains("免费试用"), "\(app.screen(width: 120))")
    }

    @Test("the month an offer code starts, once it arrives and is credited, is named on the HUD: \"Purchase complete\" had an empty product line (found by QA)")
    func redeemedMonthIsNamed() throws {
        let app = try Self.carolOnTheFreeOffer()
        app.press(.char("o"))
        app.type("VIPSPRING")
        app.press(.enter)
        app.advance(5)
        let screen = app.screen()
        #expect(screen.contains("✓ Purchase complete") && screen.contains("│                 Monthly VIP                  │"), "\(screen)")
    }

    @Test("in the app: o past the promotional offers opens StoreKit's redemption sheet; the typed code is redeemed for the device's Apple ID; a code no offer has, or a second one of the offer, is said on the HUD in both languages")
    func redemptionSheet() throws {
        let app = try Self.carolOnTheFreeOffer()
        app.press(.char("o"))
        #expect(app.screen().contains("Offer code:") && app.state.offerChoices.isEmpty)
        app.type("vip")
        app.press(.char("q"), .backspace, .char(" "), .char("s"), .char("p"), .char("r"), .char("i"), .char("n"), .char("g"))
        #expect(app.screen().contains("vip spring"))
        app.press(.enter)
        app.advance(0.1)
        #expect(app.screen().contains("✓ Offer code redeemed"))
        // The timeline names the code as the App Store read it, not as typed (found by a trainer's walk).
        #expect(app.session.timeline.entries(.en).contains { $0.text.contains("store: offer code VIPSPRING redeemed") },
                "\(app.session.timeline.entries(.en).map(\.text))")
        // The month it starts then arrives as any purchase, and is credited to carol.
        app.advance(5)
        #expect(app.screen().contains("✓ Purchase complete"))
        app.press(.escape)
        #expect(app.parties.store.subscriptions(account: "carol").first?.state == .trial)
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

    @Test("one-time codes: the store makes the catalog's 20 once; each is redeemed once, by whichever Apple ID types it first; the offer's name is no code")
    func oneTimeCodes() throws {
        let app = try Harness(user: "carol")
        app.advance(0.5)
        let codes = try app.parties.store.database.oneTimeCodes()
        #expect(codes.count == 20 && Set(codes.map(\.code)).count == 20)
        #expect(codes.allSatisfy { $0.offerId == "VIP_PRESS" && $0.code.count == 16 && $0.redeemedBy == nil })
        #expect(app.parties.store.redeem(code: "VIP_PRESS", account: "carol") == .failure(.invalidOfferCode))
        let code = codes[0].code
        let typed = code.prefix(8).lowercased() + " " + code.dropFirst(8)
        let transaction = try #require(try app.parties.store.redeem(code: typed, account: "carol").get())
        app.advance(5)
        #expect(try app.storeDetails([transaction.id])[transaction.id]?.offerId == "VIP_PRESS")
        #expect(try app.parties.store.database.oneTimeCodes().first { $0.code == code }?.redeemedBy == "carol")
        // Another Apple ID with the same code: taken. Nothing is charged, and the code stays carol's.
        let charges = try app.charges().count
        #expect(app.parties.store.redeem(code: code, account: "dave") == .failure(.oneTimeCodeUsed))
        #expect(try app.parties.store.database.oneTimeCodes().first { $0.code == code }?.redeemedBy == "carol")
        // carol, a subscriber now, with another of the offer's codes: the offer is for new and lapsed subscribers, and that
        // code stays unused.
        #expect(app.parties.store.redeem(code: codes[1].code, account: "carol") == .failure(.offerCodeIneligible))
        #expect(try app.parties.store.database.oneTimeCodes().first { $0.code == codes[1].code }?.redeemedBy == nil)
        app.advance(5)
        #expect(try app.charges().count == charges)
        // A relaunch keeps the codes: none is made twice.
        try app.relaunch()
        #expect(try app.parties.store.database.oneTimeCodes().map(\.code) == codes.map(\.code))
        // iapsim state lists them for QA, with who redeemed which.
        let report = try StateReport.json(for: app.directory, catalog: shippedCatalog)
        #expect(report.contains("\"code\" : \"\(code)\"") && report.contains("\"redeemedBy\" : \"carol\""))
    }

    @Test("a custom code's limit counts every Apple ID's redemptions; an offer's eligibility turns a current subscriber away; neither charges")
    func limitAndEligibility() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.buy(Self.monthly)
        #expect(app.parties.store.subscriptions(account: "alice").first?.state == .trial)
        let code = try #require(try app.parties.store.database.oneTimeCodes().first?.code)
        var charges = try app.charges().count
        #expect(app.parties.store.redeem(code: code, account: "alice") == .failure(.offerCodeIneligible))
        #expect(try app.parties.store.database.oneTimeCodes().first?.redeemedBy == nil)
        for account in ["a1", "a2", "a3"] {
            #expect(try app.parties.store.redeem(code: "VIPHALF", account: account).get() != nil)
        }
        charges += 3
        #expect(app.parties.store.redeem(code: "VIPHALF", account: "a4") == .failure(.offerCodeLimitReached))
        app.advance(5)
        #expect(try app.charges().count == charges)
    }

    @Test("the sheet says each refusal, in both languages", arguments: [
        (StoreError.oneTimeCodeUsed, "This code has already been redeemed", "此优惠码已被兑换"),
        (.offerCodeLimitReached, "This code is no longer available", "此优惠码已不可用"),
        (.offerCodeIneligible, "You're not eligible for this offer", "你不符合此优惠的条件"),
    ])
    func refusalsOnTheSheet(error: StoreError, english: String, chinese: String) throws {
        let app = try Harness(user: "carol")
        app.advance(0.5)
        app.runtime.send(.codeRedeemed(code: "X", .failure(error)))
        #expect(app.screen().contains(english))
        app.press(.char("l"))
        #expect(app.screen().contains(chinese))
    }
}
