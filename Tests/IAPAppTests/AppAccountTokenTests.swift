import Foundation
import IAPApp
import IAPCore
import MockBackend
import MockStore
import Testing

/// Issue 28, item 2: in StoreKit 2 a purchase carries the app user's `appAccountToken`, which the backend makes once
/// per app user and keeps; the store keeps it on the transaction, its renewals and its restores.
@Suite("StoreKit 2: the appAccountToken the backend keeps per app user rides on the purchase")
struct AppAccountTokenTests {
    static let coins = "com.iapsim.coins.60", monthly = "com.iapsim.vip.monthly"

    private func tokens(_ app: Harness) throws -> [UUID?] {
        try app.storeTransactions().map(\.0.appAccountToken)
    }

    private func owner(_ app: Harness, _ token: UUID?) throws -> String? {
        try token.flatMap { try app.parties.backend.database.user(ofAppAccountToken: $0) }
    }

    @Test("each purchase carries its buyer's token: the same for alice each time, another for bob; credited as before")
    func perUser() throws {
        let app = try Harness(user: "alice", storeKit: .two)
        app.advance(0.5)
        app.buy(Self.coins)
        app.buy(Self.coins)
        app.logIn("bob")
        app.buy(Self.coins)
        let carried = try tokens(app)
        #expect(carried.count == 3)
        #expect(carried[0] != nil && carried[0] == carried[1])
        #expect(carried[2] != nil && carried[2] != carried[0])
        #expect(try owner(app, carried[0]) == "alice")
        #expect(try owner(app, carried[2]) == "bob")
        #expect(try app.credits().map(\.user) == ["alice", "alice", "bob"])
    }

    @Test("the backend keeps the token: after a relaunch alice pays with the same one")
    func keptAcrossRelaunch() throws {
        let app = try Harness(user: "alice", storeKit: .two)
        app.advance(0.5)
        app.buy(Self.coins)
        try app.relaunch(user: "alice")
        app.advance(0.5)
        app.buy(Self.coins)
        let carried = try tokens(app)
        #expect(carried.count == 2 && carried[0] != nil && carried[0] == carried[1])
    }

    @Test("empty-application-username means, in StoreKit 2, a transaction without its token: credited to alice by the evidence rules")
    func tokenDropped() throws {
        let app = try Harness(user: "alice", faults: [.emptyApplicationUsername], storeKit: .two)
        app.advance(0.5)
        app.buy(Self.coins)
        #expect(try tokens(app) == [nil])
        #expect(try app.credits().map(\.user) == ["alice"])
        #expect(try app.storeTransactions().map(\.finished) == [true])
    }

    @Test("StoreKit 1 pays without a token, as SKPayment has none")
    func noneInStoreKitOne() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.buy(Self.coins)
        #expect(try tokens(app) == [nil])
        #expect(try app.credits().count == 1)
    }

    @Test("with the backend down the payment still goes ahead, without a token, and is credited once it is back")
    func backendDown() throws {
        let app = try Harness(user: "alice", faults: [.backendDown], storeKit: .two)
        app.advance(0.5)
        app.press(.enter)
        app.advance(5)
        #expect(try tokens(app) == [nil])
        app.press(.escape, .char("b"))  // the backend back up
        app.advance(2)
        #expect(try app.credits().map(\.user) == ["alice"])
    }

    /// Alice's payment waits uncredited (its signature refused while she was logged in); bob logs in on the same phone,
    /// and his app sends it with no order named, the server's check passing now. `faults` armed before it is sent.
    private func bobSendsAlicesPayment(_ faults: [(Fault, FaultArm)] = []) throws -> (Harness, Result<VerifyResponse, BackendError>?) {
        let app = try Harness(user: "alice", faults: [.unverifiedTransaction], storeKit: .two)
        app.advance(0.5)
        app.buy(Self.coins)
        #expect(try app.credits().isEmpty)
        app.logIn("bob")
        app.runtime.send(.setFault(.unverifiedTransaction, nil))
        for (fault, arm) in faults { app.runtime.send(.setFault(fault, arm)) }
        let paid = try #require(try app.storeTransactions().first?.0)
        var answer: Result<VerifyResponse, BackendError>?
        app.parties.backend.verify(VerifyRequest(receipt: try #require(app.parties.store.appReceipt()), transactionId: paid.id,
                                                 productId: Self.coins, orderId: nil, user: "bob",
                                                 signedTransaction: app.parties.store.signedTransaction(id: paid.id))) { answer = $0 }
        app.advance(1)
        return (app, answer)
    }

    @Test("the server credits whom the signed transaction's token names, whoever's app sends it, with no order named")
    func serverCreditsTheTokensUser() throws {
        let (app, answer) = try bobSendsAlicesPayment()
        #expect(answer == .success(.credited(user: "alice", new: true)))
        #expect(try app.credits().map(\.user) == ["alice"])
    }

    @Test("the token's user is kept with a request Apple asked to try again, and credited when Apple answers")
    func tokensUserKeptForApple() throws {
        let (app, answer) = try bobSendsAlicesPayment([(.verifyStatus, FaultArm(value: "21005", once: true))])
        #expect(answer == .success(.pending(appleStatus: 21005)))
        app.advance(6)  // the server asks Apple again 5 s later
        #expect(try app.credits().map(\.user) == ["alice"])
    }

    @Test("a renewal carries its chain's token")
    func renewal() throws {
        let app = try Harness(user: "alice", storeKit: .two)
        app.advance(0.5)
        app.buy(Self.monthly)
        let due = try #require(app.parties.store.nextSubscriptionEvent())
        app.advance(due.timeIntervalSince(app.timers.now) + 1)
        app.advance(5)
        let chain = try app.charges().filter { $0.transaction.productId == Self.monthly }.map(\.transaction.appAccountToken)
        #expect(chain.count == 2)
        #expect(chain[0] != nil && chain[1] == chain[0])
    }
}

/// From a QA walk: logging in with the backend down, StoreKit 2, the timeline said "paying without one" though nobody
/// was paying; a purchase that goes on without a token says so by its order.
@Suite("The timeline tells a token that did not come at login from a purchase made without one")
struct TokenAtLoginTimelineTests {
    @Test("backend down at login: no appAccountToken, and no word of paying")
    func loginSaysNoPaying() throws {
        let app = try Harness(user: "bob", faults: [.backendDown], storeKit: .two)
        app.advance(0.5)
        let told = app.session.timeline.entries(.en).map(\.text)
        let line = try #require(told.first { $0.contains("no appAccountToken for bob") }, "\(told)")
        #expect(!line.contains("paying"), "\(line)")
    }
}
