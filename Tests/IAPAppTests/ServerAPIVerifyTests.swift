import Foundation
import IAPApp
import IAPCore
import Testing

/// Issue 28: a server written against StoreKit 2 checks the signed transaction and asks Apple's Server API for the rest;
/// it reads no receipt.
@Suite("StoreKit 2: the server credits from the signed transaction and the Server API, not from a receipt")
struct ServerAPIVerifyTests {
    /// Alice buys 60 Coins with the backend down; then her transaction is sent to the server with `receipt` beside it.
    private func sent(receipt: String, _ faults: [(Fault, FaultArm)] = []) throws -> (Harness, Result<VerifyResponse, BackendError>?) {
        let app = try Harness(user: "alice", faults: [.backendDown], storeKit: .two)
        app.advance(0.5)
        app.buy(AppAccountTokenTests.coins)
        app.runtime.send(.setFault(.backendDown, nil))
        for (fault, arm) in faults { app.runtime.send(.setFault(fault, arm)) }
        let paid = try #require(try app.storeTransactions().first?.0)
        var answer: Result<VerifyResponse, BackendError>?
        app.parties.backend.verify(VerifyRequest(receipt: receipt, transactionId: paid.id, productId: AppAccountTokenTests.coins,
                                                 orderId: nil, user: "alice",
                                                 signedTransaction: app.parties.store.signedTransaction(id: paid.id))) { answer = $0 }
        app.advance(1)
        return (app, answer)
    }

    @Test("a signed transaction that passes the check is credited whatever receipt comes with it")
    func receiptNotRead() throws {
        let (app, answer) = try sent(receipt: "not a receipt")
        #expect(answer == .success(.credited(user: "alice", new: true)))
        #expect(try app.credits().map(\.user) == ["alice"])
    }

    @Test("a request Apple asked to try again is asked again through the Server API, still without the receipt")
    func keptRequest() throws {
        let (app, answer) = try sent(receipt: "not a receipt", [(.verifyStatus, FaultArm(value: "21005", once: true))])
        #expect(answer == .success(.pending(appleStatus: 21005)))
        app.advance(6)  // the server asks Apple again 5 s later
        #expect(try app.credits().map(\.user) == ["alice"])
    }

    @Test("the StoreKit 2 app sends no receipt: an empty app receipt holds nothing back")
    func appSendsNoReceipt() throws {
        let app = try Harness(user: "alice", faults: [.receiptEmpty], storeKit: .two)
        app.advance(0.5)
        app.buy(AppAccountTokenTests.coins)
        app.advance(5)
        #expect(try app.credits().map(\.user) == ["alice"])
        #expect(try app.storeTransactions().allSatisfy(\.finished))
        #expect(try app.clientOrders().isEmpty)
    }

    @Test("without a signed transaction the server still reads the receipt (StoreKit 1)")
    func storeKitOne() throws {
        let app = try Harness(user: "alice", faults: [.backendDown])
        app.advance(0.5)
        app.buy(AppAccountTokenTests.coins)
        let paid = try #require(try app.storeTransactions().first?.0)
        var answer: Result<VerifyResponse, BackendError>?
        app.runtime.send(.setFault(.backendDown, nil))
        app.parties.backend.verify(VerifyRequest(receipt: "not a receipt", transactionId: paid.id, productId: AppAccountTokenTests.coins,
                                                 orderId: nil, user: "alice")) { answer = $0 }
        app.advance(1)
        // 21002: Apple could not read the receipt-data.
        #expect(answer == .success(.pending(appleStatus: 21002)), "\(String(describing: answer))")
        #expect(try app.credits().isEmpty)
    }
}
