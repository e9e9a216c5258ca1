import AppleVocabulary
import AppleWire
import Crypto
import Foundation
import IAPApp
import IAPCore
@testable import MockStore
import Testing

/// What a charge cost, as Apple's signed transaction and renewal info say it (`price` in thousandths of `currency`,
/// the offer's `offerDiscountType` and `offerPeriod`): a team's server counts revenue from these.
@Suite("Prices in Apple's signed words")
struct TransactionPriceTests {
    static let coins = "com.iapsim.coins.60", monthly = "com.iapsim.vip.monthly"

    private func signed(_ app: Harness, _ id: String) throws -> JWSTransaction {
        JWSTransaction(try #require(try app.appleRecords.transaction(id)), signedAt: app.timers.now)
    }

    private func renewal(_ app: Harness, _ original: String) throws -> JWSRenewalInfo {
        JWSRenewalInfo(try #require(try app.appleRecords.subscription(original: original)), signedAt: app.timers.now)
    }

    @Test("a consumable's signed transaction carries the catalog's price in milliunits and its currency, and no offer")
    func catalogPrice() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.buy(Self.coins)
        let charge = try signed(app, try app.latestChargeId())
        #expect(charge.price == 6_000 && charge.currency == "CNY")
        #expect(charge.offerType == nil && charge.offerDiscountType == nil && charge.offerPeriod == nil)
    }

    @Test("a free trial costs nothing (price 0, FREE_TRIAL, P1W) and the renewal info says the month after it costs ¥30; that renewal is charged ¥30 with no offer")
    func freeTrialThenFullPrice() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.buy(Self.monthly)
        let trial = try #require(try app.charges().last)
        let first = try signed(app, trial.transaction.id)
        #expect(first.offerType == 1 && first.offerDiscountType == "FREE_TRIAL" && first.offerPeriod == "P1W")
        #expect(first.price == 0 && first.currency == "CNY")
        let next = try renewal(app, trial.transaction.id)
        #expect(next.renewalPrice == 30_000 && next.currency == "CNY")
        #expect(next.offerType == nil && next.offerDiscountType == nil, "the trial's one week is over at the renewal")
        #expect(next.recentSubscriptionStartDate == AppleDate.milliseconds(trial.transaction.date))
        let due = try #require(app.parties.store.nextSubscriptionEvent())
        app.advance(due.timeIntervalSince(app.timers.now) + 5)
        let renewed = try #require(try app.charges().last)
        #expect(renewed.transaction.id != trial.transaction.id)
        let second = try signed(app, renewed.transaction.id)
        #expect(second.price == 30_000 && second.currency == "CNY" && second.offerType == nil && second.offerDiscountType == nil)
    }

    @Test("a signed transaction and its subscription's renewal info name the customer's app download (appTransactionId, as Get App Transaction Info gives it) and the renewal info the chain's appAccountToken")
    func appDownloadNamed() throws {
        // StoreKit 2: the app gives the purchase its user's token.
        let app = try Harness(user: "alice", storeKit: .two)
        app.advance(0.5)
        app.buy(Self.monthly)
        let id = try app.latestChargeId()
        let records = app.appleRecords
        let transaction = try #require(try records.transaction(id))
        let download = try #require(try records.appTransaction(of: transaction))
        let charge = try signed(app, id)
        #expect(charge.appTransactionId == download.appTransactionId)
        let next = try renewal(app, id)
        #expect(next.appTransactionId == download.appTransactionId)
        #expect(charge.appAccountToken != nil && next.appAccountToken == charge.appAccountToken)
    }

    @Test("an app download's id is a 7 and fifteen digits, zeros first when its number is shorter, the same for an account on every run")
    func appDownloadIdShape() {
        for account in ["alice@example.com", "bob@example.com", "a", "", "家庭@example.com"] + (0..<40).map({ "buyer\($0)@example.com" }) {
            let id = AppleRecords.appTransactionId(account: account)
            #expect(id.count == 16 && id.first == "7" && id.allSatisfy(\.isASCII) && id.allSatisfy(\.isNumber), "\(account): \(id)")
            let number = SHA256.hash(data: Data(account.utf8)).prefix(6).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            #expect(UInt64(id.dropFirst()) == number)
        }
        #expect(AppleRecords.appTransactionId(account: "alice@example.com") == AppleRecords.appTransactionId(account: "alice@example.com"))
    }

    @Test("renewal info's renewalDate is the latest charge's expiry also once auto-renew is off and after the subscription expired, as Apple says it always is")
    func renewalDateAlwaysThere() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.buy(Self.monthly)
        let original = try app.latestChargeId()
        let trialEnds = try #require(try app.storeDetails([original])[original]?.expiresDate)
        app.parties.store.setAutoRenew(false, originalTransactionId: original)
        #expect(try renewal(app, original).renewalDate == AppleDate.milliseconds(trialEnds))
        app.advance(30 * 86_400)
        #expect(app.parties.store.subscriptions(account: "alice").first?.state == .expired)
        let expired = try renewal(app, original)
        #expect(expired.autoRenewStatus == 0 && expired.renewalDate == AppleDate.milliseconds(trialEnds))
    }
}
