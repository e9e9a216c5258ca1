import Foundation
import IAPCore
@testable import IAPUI
import Testing

/// What the store and the backend do on their own clock reaches the app as fresh readings; the timeline tells what
/// changed, in both languages.
@Suite("The timeline tells renewals, billing retries, expiries, refunds and plan changes")
struct TimelineTests {
    static let day = 86_400.0
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func vip(_ state: SubscriptionStatus.State, _ days: Double?, product: String = "com.iapsim.vip.monthly",
                    renewsAs: String? = nil) -> SubscriptionStatus {
        SubscriptionStatus(productId: product, group: "com.iapsim.vip", state: state, date: days.map { start.addingTimeInterval($0 * day) },
                           renewsAs: renewsAs, originalTransactionId: "1000000004")
    }

    /// Alice's session reducing each action in turn, the timeline given the state each was reduced from.
    struct Reading {
        var timeline = Timeline()
        var state = AppState()

        init(user: String = "alice") {
            state.session = Session(user: user)
        }

        mutating func read(_ action: Action) {
            let before = state
            _ = state.reduce(action, now: start)
            timeline.record(action, [], from: before, at: start)
        }

        var en: [String] { timeline.entries(.en).map(\.text) }
    }

    @Test("the timeline keeps its newest lines up to its capacity, oldest first, however many were told, and times them from the very first")
    func keepsTheNewest() {
        var timeline = Timeline(capacity: 5)
        for line in 1...23 {
            timeline.note(Localized(en: "line \(line)", zh: "第 \(line) 行"), at: Self.start.addingTimeInterval(Double(line)))
            let kept = timeline.entries(.en).map(\.text)
            #expect(kept == (max(1, line - 4)...line).map { "line \($0)" })
        }
        #expect(timeline.entries(.zh).map(\.text) == (19...23).map { "第 \($0) 行" })
        #expect(timeline.origin == Self.start.addingTimeInterval(1))
    }

    /// The timeline after each reading in turn, the first one only setting where things stand.
    static func told(_ readings: [[SubscriptionStatus]]) -> (en: [String], zh: [String]) {
        var session = Reading()
        for reading in readings { session.read(.subscriptionsLoaded("alice", reading)) }
        return (session.en, session.timeline.entries(.zh).map(\.text))
    }

    @Test("a date in another year than the reading's says its year, as the product list says it")
    func anotherYear() {
        let yearly = "com.iapsim.vip.yearly"
        let (en, zh) = Self.told([[], [Self.vip(.active, 400, product: yearly)]])
        #expect(en == ["store: com.iapsim.vip.yearly subscribed: Active · renews 19 Feb 2028"])
        #expect(zh == ["商店:com.iapsim.vip.yearly 已订阅:生效中 · 2028年2月19日 续期"])
    }

    @Test("a subscription's life: trial, first paid renewal, a failed charge, recovery, cancel, expiry")
    func life() {
        let (en, zh) = Self.told([
            [],
            [Self.vip(.trial, 7)],
            [Self.vip(.active, 38)],
            [Self.vip(.gracePeriod, 54)],
            [Self.vip(.active, 70)],
            [Self.vip(.cancelled, 70)],
            [Self.vip(.active, 70)],
            [Self.vip(.cancelled, 70)],
            [Self.vip(.expired, 70)],
        ])
        #expect(en == [
            "store: com.iapsim.vip.monthly subscribed: Trial until 22 Jan",
            "store: com.iapsim.vip.monthly renewed: Active · renews 22 Feb",
            "store: com.iapsim.vip.monthly the renewal's charge failed: Billing retry · grace until 10 Mar",
            "store: com.iapsim.vip.monthly billing recovered, renewed: Active · renews 26 Mar",
            "store: com.iapsim.vip.monthly auto-renew off: Cancelled · ends 26 Mar",
            "store: com.iapsim.vip.monthly auto-renew back on: Active · renews 26 Mar",
            "store: com.iapsim.vip.monthly auto-renew off: Cancelled · ends 26 Mar",
            "store: com.iapsim.vip.monthly ended: Expired",
        ])
        #expect(zh[0] == "商店:com.iapsim.vip.monthly 已订阅:试用至 1月22日")
        #expect(zh[2] == "商店:com.iapsim.vip.monthly 续期扣款失败:扣款重试中 · 宽限期至 3月10日")
        for (a, b) in zip(en, zh) { #expect(a != b, "\(a) is not translated") }
    }

    @Test("billing that fails past the grace period and then for good, a recovery after it, a refund, plan changes now and at the renewal")
    func endsAndChanges() {
        let plus = "com.iapsim.vip.plus", yearly = "com.iapsim.vip.yearly"
        #expect(Self.told([[Self.vip(.gracePeriod, 16)], [Self.vip(.billingRetry, 60)], [Self.vip(.expired, 0)]]).en
            == ["store: com.iapsim.vip.monthly the grace period ended without a charge: service off, Apple still retries: Billing retry · service off",
                "store: com.iapsim.vip.monthly Apple stopped retrying the charge: Expired"])
        #expect(Self.told([[Self.vip(.billingRetry, 60)], [Self.vip(.active, 90)]]).en
            == ["store: com.iapsim.vip.monthly billing recovered, renewed: Active · renews 15 Apr"])
        #expect(Self.told([[Self.vip(.active, 20)], [Self.vip(.revoked, 1)]]).en
            == ["store: com.iapsim.vip.monthly refunded by Apple: Refunded · ended 16 Jan"])
        let upgrade = Self.told([[Self.vip(.active, 20)], [Self.vip(.active, 30, product: plus)]])
        #expect(upgrade.en == ["store: plan com.iapsim.vip.monthly → com.iapsim.vip.plus: Active · renews 14 Feb"])
        #expect(upgrade.zh == ["商店:方案 com.iapsim.vip.monthly → com.iapsim.vip.plus:生效中 · 2月14日 续期"])
        #expect(Self.told([[Self.vip(.active, 20, product: plus)], [Self.vip(.active, 20, product: plus, renewsAs: yearly)]]).en
            == ["store: com.iapsim.vip.plus the next renewal charges com.iapsim.vip.yearly: Active · renews 4 Feb"])
        #expect(Self.told([[Self.vip(.active, 20, product: plus, renewsAs: yearly)], [Self.vip(.active, 385, product: yearly)]]).en
            == ["store: plan com.iapsim.vip.plus → com.iapsim.vip.yearly: Active · renews 4 Feb 2028"])
        // Resubscribing after the end is a new start in the same chain.
        #expect(Self.told([[Self.vip(.expired, 0)], [Self.vip(.active, 30)]]).en
            == ["store: com.iapsim.vip.monthly subscribed: Active · renews 14 Feb"])
    }

    @Test("the same reading again, or the first one, is no news")
    func noNews() {
        #expect(Self.told([[Self.vip(.active, 20)], [Self.vip(.active, 20)]]).en.isEmpty)
        #expect(Self.told([[Self.vip(.active, 20)]]).en.isEmpty)
    }

    @Test("news is told against the reading the state held: not another user's, not a closed session's, and from any timeline")
    func againstTheState() {
        var alice = Reading()
        alice.read(.subscriptionsLoaded("alice", [Self.vip(.active, 20)]))
        alice.read(.accountLoaded("alice", Account(coins: 60)))
        // Bob's readings while alice is logged in are not hers, and are not kept for later.
        alice.read(.subscriptionsLoaded("bob", [Self.vip(.expired, 0)]))
        alice.read(.accountLoaded("bob", Account()))
        #expect(alice.en.isEmpty, "\(alice.en)")
        // A new timeline (a relaunched program) given that state tells the next change all the same.
        var told = Timeline()
        told.record(.subscriptionsLoaded("alice", [Self.vip(.revoked, 1)]), [], from: alice.state, at: Self.start)
        told.record(.accountLoaded("alice", Account()), [], from: alice.state, at: Self.start)
        #expect(told.entries(.en).map(\.text) == ["store: com.iapsim.vip.monthly refunded by Apple: Refunded · ended 16 Jan",
                                                  "backend: 60 coins taken back from alice"])
        // A session logged in afresh starts from where things stand: its first reading is no news.
        var again = Reading()
        again.read(.subscriptionsLoaded("alice", [Self.vip(.revoked, 1)]))
        again.read(.accountLoaded("alice", Account()))
        #expect(again.en.isEmpty, "\(again.en)")
    }

    @Test("c in the inspector with no order to compensate says so, where it did nothing at all")
    func nothingToCompensate() {
        var session = Reading()
        session.state.modal = .inspector
        session.read(.key(.char("c")))
        #expect(session.en == ["key c → nothing to compensate: no order of alice's is waiting with an order id"], "\(session.en)")
        #expect(session.timeline.entries(.zh).map(\.text) == ["按键 c → 无可补单:alice 没有带订单号的待处理订单"])
    }

    @Test("a in the inspector with no payment unclaimed says so, where it logged only the key (found by QA)")
    func nothingToAssign() {
        var session = Reading()
        session.state.modal = .inspector
        session.read(.key(.char("a")))
        #expect(session.en == ["key a → nothing to assign: no payment is waiting for its buyer"], "\(session.en)")
        #expect(session.timeline.entries(.zh).map(\.text) == ["按键 a → 无可分配:没有等待认定买家的付款"])
    }

    @Test("letters typed into the login field are text, not keys: only Enter, which logs in, is told")
    func typedName() {
        var session = Reading()
        session.state.session = nil
        for key: Key in [.char("b"), .char("o"), .char("b")] { session.read(.key(key)) }
        #expect(session.en.isEmpty, "\(session.en)")
        session.read(.key(.enter))
        #expect(session.en == ["key Enter"], "\(session.en)")
    }

    @Test("a renewal reaching the app is told as one; what the backend takes back is told too")
    func renewalAndRevocation() {
        var session = Reading()
        let renewal = StoreTransaction(id: "1000000012", productId: "com.iapsim.vip.monthly", state: .purchased, applicationUsername: nil,
                                       date: Self.start, originalTransactionId: "1000000004", isRenewal: true)
        let bought = StoreTransaction(id: "1000000013", productId: "com.iapsim.vip.plus", state: .purchased, applicationUsername: "ORD-1",
                                      date: Self.start, originalTransactionId: "1000000004")
        session.timeline.record(.storeUpdated([renewal, bought]), [], from: session.state, at: Self.start)
        session.read(.accountLoaded("alice", Account(coins: 360, owned: ["com.iapsim.noads", "com.iapsim.vip.monthly"])))
        session.read(.accountLoaded("alice", Account(coins: 300, owned: ["com.iapsim.vip.monthly"])))
        session.read(.accountLoaded("alice", Account(coins: 360, owned: ["com.iapsim.vip.monthly"])))
        var gems = Account(coins: 360, owned: ["com.iapsim.vip.monthly"])
        gems.units = ["com.example.gems": 3]
        session.read(.accountLoaded("alice", gems))
        gems.units = ["com.example.gems": 1]
        session.read(.accountLoaded("alice", gems))
        #expect(session.en == [
            "store: tx 1000000012 purchased, a renewal of 1000000004; tx 1000000013 purchased",
            "backend: 60 coins taken back from alice; backend: alice no longer has com.iapsim.noads",
            "backend: 2 × com.example.gems taken back from alice",
        ])
        #expect(session.timeline.entries(.zh).map(\.text)[0] == "商店:tx 1000000012 已购买,为 1000000004 的续期; tx 1000000013 已购买")
    }

    @Test("a line is worded when it is first read, as things stood when it happened: the StoreKit of that moment and the user who was logged in, the same words at every reading")
    func wordedAsItHappened() {
        var timeline = Timeline()
        var state = AppState(storeKit: .one)
        state.session = Session(user: "alice")
        let bought = StoreTransaction(id: "1000000013", productId: "com.iapsim.coins.60", state: .purchased, applicationUsername: "ORD-1",
                                      date: Self.start)
        for storeKit: StoreKitMode in [.one, .two] {
            // The state the line was taken from changes before the line is read, as the reducer changes it.
            state.storeKit = storeKit
            let before = Timeline.Before(.storeUpdated([bought]), state)
            state.storeKit = storeKit == .one ? .two : .one
            state.session = Session(user: storeKit == .one ? "bob" : "alice")
            timeline.record(.storeUpdated([bought]), [], from: before, to: state, at: Self.start)
        }
        let en = timeline.entries(.en).map(\.text)
        #expect(en.count == 2)
        #expect(en.first?.hasPrefix("store: tx 1000000013 purchased") == true, "\(en)")
        #expect(en.first?.hasSuffix("→ alice logged out, bob logged in") == true, "\(en)")
        #expect(en.last?.hasPrefix("store: ") == false, "StoreKit 2 names no payment queue: \(en)")
        #expect(en.last?.hasSuffix("→ bob logged out, alice logged in") == true, "\(en)")
        #expect(timeline.entries(.en).map(\.text) == en)
        #expect(timeline.entries(.zh).map(\.text).first?.hasPrefix("商店:tx 1000000013 已购买") == true)
    }

    @Test("times since the first entry keep eight columns: seconds to the tenth, then minutes, hours and days up to a year (found by QA: 2962.7s for 49 minutes)")
    func elapsed() {
        #expect(Elapsed.text(5) == "    5.0s")
        #expect(Elapsed.text(599.9) == "  599.9s")
        #expect(Elapsed.text(2_962.7) == " 49m 22s")
        #expect(Elapsed.text(7_500) == "  2h 05m")
        #expect(Elapsed.text(99_999.9) == "  1d 03h")
        #expect(Elapsed.text(7 * Self.day + 7_200) == "  7d 02h")
        #expect(Elapsed.text(365 * Self.day) == "365d 00h")
    }
}
