import AppleVocabulary
import Crypto
import Foundation
import IAPApp
import IAPCore
@testable import MockBackend
@testable import MockStore
import Testing

/// Promotional offers (issue 30, item 3): the app's server signs, Apple checks the signature and sells at the offer.
@Suite("Promotional offers: the server's signature, Apple's judgement, the offer's price and periods")
struct PromotionalOfferTests {
    static let monthly = "com.iapsim.vip.monthly"
    static let day: TimeInterval = 86_400
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let comeback = SubscriptionOffer(id: "comeback", terms: IntroOffer(mode: .payAsYouGo, period: SubscriptionPeriod(months: 1), periods: 3,
                                                                             price: Localized("¥12")))
    static let terms = SubscriptionTerms(group: "vip", level: 2, period: SubscriptionPeriod(months: 1),
                                         introOffer: IntroOffer(mode: .freeTrial, period: SubscriptionPeriod(weeks: 1)),
                                         promotionalOffers: [comeback])
    static let key = OffersKeyPair(SubscriptionOffersKey(id: "KEY1234567", privateKey: P256.Signing.PrivateKey().derRepresentation.base64EncodedString()))!

    private func signed(_ offerId: String = "comeback", name: String? = "order-1", key: OffersKeyPair = key, at date: Date = start,
                        storeKit: StoreKitMode = .one) throws -> OfferSignature {
        try OfferSigner(key.key)!.sign(productId: "monthly", offerId: offerId, applicationUsername: name, nonce: UUID().uuidString, storeKit: storeKit,
                                       at: date)
    }

    private func judge(_ signature: OfferSignature, name: String? = "order-1", subscribed: Bool = true, at date: Date = start,
                       product: String = "monthly") -> Result<SubscriptionOffer, StoreError> {
        PromotionalOfferCheck.judge(signature, payment: Payment(productId: product, applicationUsername: name, offerSignature: signature),
                                    terms: Self.terms, key: Self.key, hasSubscribed: subscribed, bundleId: Receipt.bundleId, now: date).map(\.offer)
    }

    /// A StoreKit 2 offer signed by `key` with these claims, as Apple's `PromotionalOfferV2SignatureCreator` makes it.
    private func jws(_ claims: SignedAppStoreRequest.Claims, keyId: String = key.id, key: OffersKeyPair = key, offerId: String = "comeback") throws
        -> OfferSignature {
        let privateKey = try P256.Signing.PrivateKey(derRepresentation: Data(base64Encoded: key.key.privateKey)!)
        let text = try SignedAppStoreRequest.compactJWS(claims, keyId: keyId) { try privateKey.signature(for: $0).rawRepresentation }
        return .signed(SignedPromotionalOffer(offerIdentifier: offerId, compactJWS: text))
    }

    @Test("what is signed is Apple's: bundle id, key id, product, offer, the username and nonce lowercased, the timestamp, joined by U+2063")
    func signedText() {
        let text = PaymentDiscount.signedText(bundleId: "com.iapsim.app", keyIdentifier: "KEY", productId: "p", offerId: "o",
                                              applicationUsername: "Order-A", nonce: "ABC-DEF", timestamp: 1_700_000_000_000)
        #expect(text == "com.iapsim.app\u{2063}KEY\u{2063}p\u{2063}o\u{2063}order-a\u{2063}abc-def\u{2063}1700000000000")
    }

    @Test("Apple's judgement: the server's signature sells; another key, another username, 24 hours and a second, an unknown offer, a never-subscribed Apple ID each are StoreKit's error")
    func judgement() throws {
        #expect(try judge(signed()) == .success(Self.comeback))
        let stranger = OffersKeyPair(SubscriptionOffersKey(id: "KEY1234567", privateKey: P256.Signing.PrivateKey().derRepresentation.base64EncodedString()))!
        #expect(try judge(signed(key: stranger)) == .failure(.invalidSignature))
        #expect(try judge(signed(), name: "order-2") == .failure(.invalidSignature))
        #expect(try judge(signed(), at: Self.start.addingTimeInterval(Self.day)) == .success(Self.comeback))
        #expect(try judge(signed(), at: Self.start.addingTimeInterval(Self.day + 1)) == .failure(.invalidSignature))
        #expect(try judge(signed("nope")) == .failure(.invalidOfferIdentifier))
        #expect(try judge(signed(), subscribed: false) == .failure(.ineligibleForOffer))
        guard case let .discount(good) = try signed() else { Issue.record("StoreKit 1 signs a PaymentDiscount"); return }
        let tampered = PaymentDiscount(identifier: good.identifier, keyIdentifier: "OTHERKEY00", nonce: good.nonce, signature: good.signature,
                                       timestamp: good.timestamp)
        #expect(judge(.discount(tampered)) == .failure(.invalidSignature))
    }

    @Test("StoreKit 2's signed offer: the server's JWS sells; another key or key id, another product, offer, audience or bundle, 24 hours and a second, or changed bytes each are StoreKit's error")
    func judgementOfTheJWS() throws {
        #expect(try judge(signed(storeKit: .two)) == .success(Self.comeback))
        // The JWS covers no applicationUsername: the order id it went with does not matter.
        #expect(try judge(signed(storeKit: .two), name: "order-2") == .success(Self.comeback))
        #expect(try judge(signed(storeKit: .two), at: Self.start.addingTimeInterval(Self.day)) == .success(Self.comeback))
        #expect(try judge(signed(storeKit: .two), at: Self.start.addingTimeInterval(Self.day + 1)) == .failure(.invalidSignature))
        #expect(try judge(signed("nope", storeKit: .two)) == .failure(.invalidOfferIdentifier))
        #expect(try judge(signed(storeKit: .two), subscribed: false) == .failure(.ineligibleForOffer))
        let stranger = OffersKeyPair(SubscriptionOffersKey(id: "KEY1234567", privateKey: P256.Signing.PrivateKey().derRepresentation.base64EncodedString()))!
        #expect(try judge(signed(key: stranger, storeKit: .two)) == .failure(.invalidSignature))
        let claims = SignedAppStoreRequest.Claims(iss: "team", bid: Receipt.bundleId, aud: "promotional-offer", iat: Self.start.timeIntervalSince1970,
                                                  nonce: UUID().uuidString, productId: "monthly", offerIdentifier: "comeback")
        #expect(try judge(jws(claims)) == .success(Self.comeback))
        #expect(try judge(jws(claims), product: "yearly") == .failure(.invalidSignature))
        #expect(try judge(jws(claims, keyId: "OTHERKEY00")) == .failure(.invalidSignature))
        var other = claims
        other.offerIdentifier = "vip_free_month"
        #expect(try judge(jws(other)) == .failure(.invalidSignature))
        other = claims
        other.aud = "introductory-offer-eligibility"
        #expect(try judge(jws(other)) == .failure(.invalidSignature))
        other = claims
        other.bid = "com.other.app"
        #expect(try judge(jws(other)) == .failure(.invalidSignature))
        guard case let .signed(good) = try jws(claims) else { return }
        var bytes = Array(good.compactJWS)
        bytes[bytes.count / 2] = bytes[bytes.count / 2] == "A" ? "B" : "A"
        #expect(judge(.signed(SignedPromotionalOffer(offerIdentifier: "comeback", compactJWS: String(bytes)))) == .failure(.invalidSignature))
        #expect(judge(.signed(SignedPromotionalOffer(offerIdentifier: "comeback", compactJWS: "not a jws"))) == .failure(.invalidSignature))
    }

    @Test("StoreKit 2's introductory offer eligibility: the server's JWS says yes or no; another key, product or audience, or 24 hours are StoreKit's error")
    func eligibilityJudgement() throws {
        let claims = SignedAppStoreRequest.Claims(iss: "team", bid: Receipt.bundleId, aud: "introductory-offer-eligibility",
                                                  iat: Self.start.timeIntervalSince1970, nonce: UUID().uuidString, productId: "monthly",
                                                  allowIntroductoryOffer: true, transactionId: "1000000001")
        let judge = { (claims: SignedAppStoreRequest.Claims, keyId: String, date: Date) throws -> Result<Bool, StoreError> in
            guard case let .signed(offer) = try self.jws(claims, keyId: keyId) else { return .failure(.invalidOfferIdentifier) }
            return PromotionalOfferCheck.eligibility(offer.compactJWS, productId: "monthly", key: Self.key, bundleId: Receipt.bundleId, now: date)
                .map(\.allow)
        }
        #expect(try judge(claims, Self.key.id, Self.start) == .success(true))
        var other = claims
        other.allowIntroductoryOffer = false
        #expect(try judge(other, Self.key.id, Self.start) == .success(false))
        #expect(try judge(claims, "OTHERKEY00", Self.start) == .failure(.invalidSignature))
        #expect(try judge(claims, Self.key.id, Self.start.addingTimeInterval(Self.day + 1)) == .failure(.invalidSignature))
        other = claims
        other.productId = "yearly"
        #expect(try judge(other, Self.key.id, Self.start) == .failure(.invalidSignature))
        other = claims
        other.aud = "promotional-offer"
        #expect(try judge(other, Self.key.id, Self.start) == .failure(.invalidSignature))
        other = claims
        other.allowIntroductoryOffer = nil
        #expect(try judge(other, Self.key.id, Self.start) == .failure(.invalidSignature))
    }

    @Test("the server's eligibility decides the intro offer: withheld from a new subscriber, given to a lapsed one")
    func eligibilityDecidesTheIntroOffer() {
        let first = SubscriptionCharge(existing: nil, latest: nil, id: "1", account: "a", productId: "monthly", terms: Self.terms, webOrder: "w1",
                                       at: Self.start)
        #expect(first.details.offer == .trial)
        let withheld = SubscriptionCharge(existing: nil, latest: nil, id: "1", account: "a", productId: "monthly", terms: Self.terms,
                                          introEligible: false, webOrder: "w1", at: Self.start)
        #expect(withheld.details.offer == nil && withheld.chain.expiresAt == SubscriptionPeriod(months: 1).end(from: Self.start))
        var lapsed = first.chain
        lapsed.expirationIntent = ExpirationIntent.cancelled
        let later = Self.start.addingTimeInterval(60 * Self.day)
        let again = SubscriptionCharge(existing: lapsed, latest: nil, id: "5", account: "a", productId: "monthly", terms: Self.terms, webOrder: "w5",
                                       at: later)
        #expect(again.details.offer == nil)
        let given = SubscriptionCharge(existing: lapsed, latest: nil, id: "5", account: "a", productId: "monthly", terms: Self.terms,
                                       introEligible: true, webOrder: "w5", at: later)
        #expect(given.details.offer == .trial && given.chain.expiresAt == SubscriptionPeriod(weeks: 1).end(from: later))
        #expect(given.chain.originalTransactionId == "1" && given.news.subtype == .resubscribe)
    }

    @Test("once per app user: alice had the trial with her first Apple ID; paying with sandbox-2, StoreKit 1 gets Apple's second trial, StoreKit 2's server withholds it",
          arguments: StoreKitMode.allCases)
    func introOncePerAppUser(storeKit: StoreKitMode) throws {
        let app = try lapsedAlice(storeKit: storeKit)
        app.runtime.send(.intent(.signInAppleId("sandbox-2")))
        app.advance(0.5)
        // The list offers the free week only where it will be given (found by QA: StoreKit 2's list promised it to alice).
        let row = app.screen(width: 120).split(separator: "\n").first { $0.contains("Monthly VIP") }.map(String.init) ?? ""
        #expect(row.contains("Free for 1 week") == (storeKit == .one), "\(row)")
        app.select(Self.monthly)
        app.press(.enter)
        app.advance(5)
        #expect(app.screen().contains("Purchase complete"))
        let charge = try #require(try app.charges().last)
        #expect(charge.account == "sandbox-2")
        let details = try #require(try app.storeDetails([charge.transaction.id])[charge.transaction.id])
        #expect(details.offer == (storeKit == .one ? .trial : nil))
        // What the HUD says was bought is what was charged: the free week only where the store gave it (found by QA:
        // StoreKit 2 said "Free for 1 week" over a charge of ¥30).
        #expect(app.screen().contains("Monthly VIP · Free for 1 week") == (storeKit == .one), "\(app.screen())")
        let said = app.session.timeline.entries(.en).map(\.text)
        #expect(said.contains { $0.contains("with its word on the intro offer: withheld (JWS)") } == (storeKit == .two), "\(said)")
    }

    @Test("StoreKit 2: a subscription Apple refunded still spent the user's intro offer, on the list as at the server: no free week promised on a new Apple ID")
    func refundedSubscriberOnTheList() throws {
        let app = try Harness(user: "alice", storeKit: .two)
        app.advance(0.5)
        app.buy(Self.monthly)
        let bought = try #require(try app.charges().last)
        #expect(app.parties.store.refund(transactionId: bought.transaction.id) == bought.transaction.id)
        app.advance(5)
        app.runtime.send(.intent(.signInAppleId("sandbox-2")))
        app.advance(1)
        // Found by QA: the list counted live credits, the server every credit, so the list promised the free week the
        // server's signed word then withheld, and the HUD said ¥30.
        let row = app.screen(width: 120).split(separator: "\n").first { $0.contains("Monthly VIP") }.map(String.init) ?? ""
        #expect(!row.contains("Free for"), "\(row)")
        app.select(Self.monthly)
        app.press(.enter)
        app.advance(5)
        #expect(app.screen().contains("Purchase complete") && !app.screen().contains("Free for"), "\(app.screen())")
    }

    @Test("the product list offers the intro offer while the Apple ID may have it: once per group, so not after any subscription of the group, and again to a new Apple ID")
    func introOfferOnTheList() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        let row = { (product: String) in app.screen(width: 120).split(separator: "\n").first { $0.contains(product) }.map(String.init) ?? "" }
        #expect(row("Monthly VIP").contains("Free for 1 week"))
        #expect(!row("Yearly VIP").contains("Free"))  // no intro offer
        app.press(.char("l"))
        #expect(row("月度会员").contains("免费试用1周"))
        app.press(.char("l"))
        // VIP Plus, of the same group, spends the group's intro offer: Monthly VIP no longer offers it.
        app.buy("com.iapsim.vip.plus")
        #expect(!row("Monthly VIP").contains("Free for"))
        app.runtime.send(.intent(.signInAppleId("sandbox-2")))
        app.advance(1)
        #expect(row("Monthly VIP").contains("Free for 1 week"))
    }

    @Test("a lapsed subscriber's offer: charged at the offer's period, offer promotional with its id; the renewals keep the offer for its 3 periods, then the regular price")
    func lapsedChargeAndRenewals() throws {
        var lapsed = SubscriptionCharge(existing: nil, latest: nil, id: "1", account: "alice", productId: "monthly", terms: Self.terms,
                                        webOrder: "w1", at: Self.start).chain
        lapsed.expirationIntent = ExpirationIntent.cancelled
        let at = Self.start.addingTimeInterval(60 * Self.day)
        let charge = SubscriptionCharge(existing: lapsed, latest: nil, id: "5", account: "alice", productId: "monthly", terms: Self.terms,
                                        offer: Self.comeback, webOrder: "w5", at: at)
        #expect(charge.details.offer == .promotional && charge.details.offerId == "comeback")
        #expect(charge.chain.expiresAt == SubscriptionPeriod(months: 1).end(from: at) && charge.chain.introLeft == 2)
        #expect(charge.news.kind == .offerRedeemed && charge.news.subtype == .resubscribe)
        var chain = charge.chain
        var offers: [String?] = []
        for n in 0..<4 {
            let step = chain.dueStep(now: chain.expiresAt, terms: ["monthly": Self.terms], billingFailures: 0, webOrder: "r\(n)")
            guard case let .renewed(_, _, details, _) = step.outcome else { Issue.record("no renewal"); return }
            offers.append(details.offerId)
            chain = step.chain
        }
        #expect(offers == ["comeback", "comeback", nil, nil])
        #expect(chain.offerId == nil && chain.introLeft == 0)
    }

    /// alice's free trial of Monthly VIP, cancelled and over: she is a lapsed subscriber.
    private func lapsedAlice(storeKit: StoreKitMode = .one) throws -> Harness {
        let app = try Harness(user: "alice", storeKit: storeKit)
        app.advance(0.5)
        app.buy(Self.monthly)
        let original = try #require(app.parties.store.subscriptions(account: "alice").first?.originalTransactionId)
        app.parties.store.setAutoRenew(false, originalTransactionId: original)
        app.advance(8 * Self.day)
        #expect(app.parties.store.subscriptions(account: "alice").first?.state == .expired)
        return app
    }

    @Test("in the app: o on Monthly VIP shows the offer; buying it, the backend signs and the store sells it at the offer; the receipt names it",
          arguments: StoreKitMode.allCases)
    func boughtInTheApp(storeKit: StoreKitMode) throws {
        let app = try lapsedAlice(storeKit: storeKit)
        app.select(Self.monthly)
        app.press(.char("o"))
        #expect(app.screen(width: 120).contains("Offer vip_comeback: ¥12/month ×3"))
        app.press(.enter)
        // The sheet charges the offer's price, not the regular one.
        #expect(app.screen().contains("Monthly VIP · ¥12/month ×3"))
        app.advance(5)
        #expect(app.screen().contains("Purchase complete") && app.screen().contains("Monthly VIP · ¥12/month ×3"))
        let charge = try #require(try app.charges().last)
        let details = try #require(try app.storeDetails([charge.transaction.id])[charge.transaction.id])
        #expect(details.offer == .promotional && details.offerId == "vip_comeback")
        #expect(app.parties.store.subscriptions(account: "alice").first?.state == .active)
        #expect(try app.credits().filter { $0.productId == Self.monthly }.count == 2)
        let receipt = try #require(app.parties.store.heldReceipt())
        let answer = app.parties.store.receiptService.verify(VerifyReceiptRequest(receiptData: receipt), at: .sandbox)
        let entries = try #require(answer.receipt?.in_app)
        #expect(entries.contains { $0.promotional_offer_id == "vip_comeback" })
        // What the app put on the payment is its StoreKit's: a JWS in StoreKit 2, an SKPaymentDiscount in 1.
        let said = app.session.timeline.entries(.en).map(\.text)
        #expect(said.contains { $0.contains(storeKit == .two ? "offer vip_comeback for \(Self.monthly) signed (JWS)" : "signed (key") })
    }

    @Test("a current subscriber takes a promotional offer for the subscription they have: nothing is charged now and the HUD says the offer applies from the next renewal, not just 'Free' (found by QA)",
          arguments: StoreKitMode.allCases)
    func offerForTheCurrentSubscription(storeKit: StoreKitMode) throws {
        let app = try Harness(user: "alice", storeKit: storeKit)
        app.advance(0.5)
        app.buy(Self.monthly)  // the free week
        app.select(Self.monthly)
        app.press(.char("o"))
        #expect(app.screen(width: 120).contains("Offer vip_comeback: ¥12/month ×3"))
        app.press(.enter)
        app.advance(5)
        let screen = app.screen()
        #expect(screen.contains("Purchase complete") && screen.contains("The offer applies from the next renewal"), "\(screen)")
        #expect(!screen.contains("Monthly VIP · Free"), "\(screen)")
        app.press(.char("l"))
        #expect(app.screen().contains("优惠将从下次续期起生效"), "\(app.screen())")
    }

    @Test("Apple tells an offer redeemed as OFFER_REDEEMED, subtyped as the change it made: RESUBSCRIBE for a lapsed subscriber, none for the subscription they have, DOWNGRADE at the next renewal (a server engineer's walk; Apple's notificationType)")
    func toldAsOfferRedeemed() throws {
        let lapsed = try lapsedAlice()
        lapsed.select(Self.monthly)
        lapsed.press(.char("o"))
        lapsed.press(.enter)
        lapsed.advance(5)
        #expect(try lapsed.notificationKinds().last == "OFFER_REDEEMED/RESUBSCRIBE")
        #expect(try lapsed.credits().filter { $0.productId == Self.monthly }.count == 2)

        let current = try Harness(user: "alice")
        current.advance(0.5)
        current.buy(Self.monthly)
        current.select(Self.monthly)
        current.press(.char("o"))
        current.press(.enter)
        current.advance(5)
        #expect(try current.notificationKinds() == ["SUBSCRIBED/INITIAL_BUY", "OFFER_REDEEMED"])

        let plus = try Harness(user: "alice")
        plus.advance(0.5)
        plus.buy("com.iapsim.vip.plus")
        plus.select(Self.monthly)
        plus.press(.char("o"))
        plus.press(.enter)
        plus.advance(5)
        #expect(try plus.notificationKinds() == ["SUBSCRIBED/INITIAL_BUY", "OFFER_REDEEMED/DOWNGRADE"])
        // The backend still entitles VIP Plus until the renewal: a downgrade changes nothing now.
        #expect(try plus.parties.backend.database.entitlements().map(\.productId) == ["com.iapsim.vip.plus"])
    }

    @Test("an upgrade at an offer is OFFER_REDEEMED/UPGRADE; without one, DID_CHANGE_RENEWAL_PREF/UPGRADE; an introductory offer is no redeemed offer")
    func upgradeAtAnOffer() {
        let basic = SubscriptionCharge(existing: nil, latest: nil, id: "1", account: "alice", productId: "basic", terms: Self.terms,
                                       webOrder: "w1", at: Self.start)
        #expect(basic.news.kind == .subscribed && basic.news.subtype == .initialBuy, "the free week is the subscription's own offer")
        let at = Self.start.addingTimeInterval(2 * Self.day)
        let offered = SubscriptionCharge(existing: basic.chain, latest: nil, id: "2", account: "alice", productId: "monthly", terms: Self.terms,
                                         offer: Self.comeback, webOrder: "w2", at: at)
        #expect(offered.news.kind == .offerRedeemed && offered.news.subtype == .upgrade)
        let plain = SubscriptionCharge(existing: basic.chain, latest: nil, id: "2", account: "alice", productId: "monthly", terms: Self.terms,
                                       webOrder: "w2", at: at)
        #expect(plain.news.kind == .didChangeRenewalPref && plain.news.subtype == .upgrade)
    }

    @Test("the same signature twice: Apple takes a nonce once, and the second payment fails with SKErrorInvalidSignature, nothing charged")
    func nonceOnce() throws {
        for storeKit in StoreKitMode.allCases {
            let app = try lapsedAlice()
            let key = try #require(app.parties.store.offersKeyPair)
            let signature = try OfferSigner(key.key)!.sign(productId: Self.monthly, offerId: "vip_free_month", applicationUsername: nil,
                                                           nonce: UUID().uuidString, storeKit: storeKit, at: app.timers.now)
            let before = try app.charges().count
            app.parties.store.add(Payment(productId: Self.monthly, applicationUsername: nil, pressedBy: "alice", offerSignature: signature))
            app.advance(5)
            #expect(try app.charges().count == before + 1)
            app.parties.store.add(Payment(productId: Self.monthly, applicationUsername: nil, pressedBy: "alice", offerSignature: signature))
            app.advance(5)
            #expect(try app.charges().count == before + 1)
            #expect(try app.storeTransactions().last?.0.error == .invalidSignature)
        }
    }

    @Test("refused in the app, in both languages: a never-subscribed Apple ID gets StoreKit's ineligible-for-offer error on the HUD, by the name of the app's StoreKit, and is not charged",
          arguments: StoreKitMode.allCases)
    func refusedOnTheHUD(storeKit: StoreKitMode) throws {
        let app = try Harness(user: "bob", storeKit: storeKit)
        app.advance(0.5)
        app.select(Self.monthly)
        app.press(.char("o"))
        app.press(.enter)
        app.advance(5)
        let english = app.screen()
        #expect(english.contains("The offer could not be applied"))
        #expect(english.contains(storeKit == .one ? "SKErrorIneligibleForOffer" : "Product.PurchaseError.ineligibleForOffer"))
        #expect(english.contains("only for current or past subscribers"))
        app.press(.char("l"))
        let chinese = app.screen()
        #expect(chinese.contains("无法使用此优惠") && chinese.contains("仅限当前或曾经的订阅者"))
        #expect(try app.charges().isEmpty)
        #expect(app.state.pendingCount == 0)
    }

    @Test("a .storekit file's subscriptionOffersKeyPair signs and checks the offers; one that cannot be read is named, never printed, and iapsim's own key takes its place")
    func fileKey() throws {
        let pair = P256.Signing.PrivateKey()
        let product = Product(id: Self.monthly, kind: .subscription, title: Localized("VIP"), summary: Localized(""), price: Localized("¥30"), coins: 0,
                              subscription: Self.terms).withOffersKey(SubscriptionOffersKey(id: "FILEKEY001", privateKey: pair.derRepresentation.base64EncodedString()))
        let app = try Harness(user: "alice", catalog: [product])
        #expect(app.parties.store.offersKeyPair?.id == "FILEKEY001")
        #expect(app.parties.store.offersKeyPair?.key.privateKey == pair.derRepresentation.base64EncodedString())
        #expect("\(SubscriptionOffersKey(id: "K", privateKey: "SECRET"))".contains("SECRET") == false)
    }
}
