import AppleVocabulary
import Foundation
import IAPCore
import MockBackend
@testable import MockStore
import Testing

/// What the store tells the app's server (App Store Server Notifications) is written in its outbox with the change it
/// tells of, and the built-in backend hears it from there: once, even across a kill.
@Suite("The store's notification outbox (S10, I1, I2)")
struct StoreOutboxTests {
    static let monthly = "com.iapsim.vip.monthly", coins = "com.iapsim.coins.60"


    @Test("a downgrade waiting for the renewal, then the current plan bought again: Apple cancels the downgrade (DID_CHANGE_RENEWAL_PREF, no subtype)")
    func downgradeTakenBack() throws {
        let plus = "com.iapsim.vip.plus"
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.buy(plus)
        app.buy(Self.monthly)
        #expect(try app.notificationKinds() == ["SUBSCRIBED/INITIAL_BUY", "DID_CHANGE_RENEWAL_PREF/DOWNGRADE"])
        app.buy(plus)
        #expect(try app.notificationKinds().suffix(1) == ["DID_CHANGE_RENEWAL_PREF"])
        app.press(.char("m"))
        #expect(app.screen().contains("Next renewal: VIP Plus"))
        app.press(.escape)
        // The renewal charges VIP Plus again, in the same chain.
        let due = try #require(app.parties.store.nextSubscriptionEvent())
        app.advance(due.timeIntervalSince(app.timers.now) + 5)
        #expect(try app.notificationKinds().last == "DID_RENEW")
        #expect(try app.charges().map(\.transaction.productId) == [plus, plus])
    }

    @Test("a purchase, a subscription, its renewal and a consumable's refund each leave their notification, in order")
    func everyEventIsWritten() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.buy(Self.coins)
        app.buy(Self.monthly)
        let due = try #require(app.parties.store.nextSubscriptionEvent())
        app.advance(due.timeIntervalSince(app.timers.now) + 5)
        let coins = try #require(try app.storeRecords().first { $0.transaction.productId == Self.coins })
        #expect(app.parties.store.refund(transactionId: coins.transaction.id) == coins.transaction.id)
        #expect(try app.notificationKinds() == ["ONE_TIME_CHARGE", "SUBSCRIBED/INITIAL_BUY", "DID_RENEW", "CONSUMPTION_REQUEST", "REFUND"])
        let entries = try app.parties.store.database.recentNotifications(limit: 100)
        #expect(Set(entries.map(\.notification.uuid)).count == entries.count)
        // No --notify: kept for the record, never sent later.
        #expect(entries.allSatisfy { $0.delivery == .notSent && $0.attempts == 0 })
        #expect(entries.last?.notification.transactionId == coins.transaction.id)
    }

    @Test("the backend applies each notificationUUID once: a subscription's purchase told again after its refund does not undo the refund")
    func backendAppliesOnce() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.buy(Self.monthly)
        let subscribed = try #require(try app.parties.store.database.recentNotifications(limit: 10).first { $0.notification.kind == .subscribed })
        #expect(app.parties.store.refund(transactionId: try app.latestChargeId()) != nil)  // named: a free trial is no paid purchase
        #expect(try app.parties.backend.database.entitlements().first?.revokedAt != nil)
        app.parties.backend.receive(subscribed.notification)
        #expect(try app.parties.backend.database.entitlements().first?.revokedAt != nil)
    }

    @Test("a notification the backend had not heard when the app was killed is heard at the next launch, once")
    func heardAfterAKill() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.buy(Self.monthly)
        // The kill comes between the store's write and the backend's hearing of it.
        app.parties.store.onNotification = nil
        #expect(app.parties.store.refund(transactionId: try app.latestChargeId()) != nil)  // named: a free trial is no paid purchase
        #expect(try app.parties.backend.database.entitlements().first?.revokedAt == nil)
        try app.relaunch()
        let revoked = try #require(try app.parties.backend.database.entitlements().first?.revokedAt)
        try app.relaunch()
        #expect(try app.parties.backend.database.entitlements().first?.revokedAt == revoked)
        #expect(try app.parties.store.database.notHeardByBackend(limit: 10).isEmpty)
    }

    @Test("every type and subtype the store sends is one of Apple's, so Notification History finds it by Apple's names")
    func typesAreApples() {
        for kind in StoreNotification.Kind.allCases { #expect(StoreNotification.appleTypes[kind.rawValue] != nil, "\(kind)") }
        for subtype in StoreNotification.Subtype.allCases { #expect(StoreNotification.appleSubtypes.contains(subtype.rawValue), "\(subtype)") }
    }
}
