import AppleReceiptFormat
import AppleVocabulary
import AppleWire
import Foundation
import IAPApp
import IAPCore
import JWTKit
@testable import MockStore
import StoreSigning
import Testing

/// Issue 28, items 1 and 3: in StoreKit 2 the client sends its server the transaction's `jwsRepresentation`, which the
/// server checks before it credits (the chain to the root it trusts, the signature, the bundle id, the environment);
/// a transaction that fails is neither credited nor finished, and is asked for again until it passes.
@Suite("StoreKit 2: the server checks the signed transaction before it credits")
struct SignedTransactionTests {
    static let coins = "com.iapsim.coins.60"

    private func told(_ app: Harness) -> String {
        app.session.timeline.entries(.en).map(\.text).joined(separator: "\n")
    }

    @Test("the signed transaction is Apple's shape: jwt-kit's x5c verifier given the root accepts it, and it names the purchase and its token")
    func appleShaped() async throws {
        let app = try Harness(user: "alice", storeKit: .two)
        app.advance(0.5)
        app.buy(Self.coins)
        let (transaction, finished) = try #require(try app.storeTransactions().first)
        #expect(finished)
        let jws = try #require(app.parties.store.signedTransaction(id: transaction.id))
        let root = try StoreCertificates.pem(StoreCertificates.of(app.parties.store.database).root)
        let payload = try await X5CVerifier(rootCertificates: [root]).verifyJWS(jws, as: JWSTransaction.self)
        #expect(payload.transactionId == transaction.id && payload.productId == Self.coins)
        #expect(payload.bundleId == Receipt.bundleId && payload.environment == "Sandbox")
        #expect(payload.appAccountToken == transaction.appAccountToken?.uuidString.lowercased())
        #expect(try app.credits().map(\.user) == ["alice"])
    }

    @Test("a signed transaction that fails a check once (its signature, another app's bundle id, Production) is asked for again and credited once",
          arguments: SignedTransactionFlaw.allCases)
    func failsOnce(flaw: SignedTransactionFlaw) throws {
        var faults = ArmedFaults()
        faults.insert(.unverifiedTransaction, FaultArm(value: flaw.rawValue, once: true))
        let app = try Harness(user: "alice", faults: faults, storeKit: .two)
        app.advance(0.5)
        app.buy(Self.coins)
        app.advance(30)
        #expect(told(app).contains("not verified: signed transaction unverified (\(flaw.rawValue))"), "\(told(app))")
        #expect(try app.credits().map(\.user) == ["alice"])
        #expect(try app.storeTransactions().allSatisfy(\.finished))
        #expect(app.state.pendingCount == 0)
    }

    @Test("while every signed transaction fails, nothing is credited or finished and the order stays pending; once they pass, credited once")
    func failsUntilFixed() throws {
        let app = try Harness(user: "alice", faults: [.unverifiedTransaction], storeKit: .two)
        app.advance(0.5)
        app.buy(Self.coins)
        app.advance(120)
        #expect(try app.credits().isEmpty)
        #expect(try app.storeTransactions().map(\.finished) == [false])
        #expect(app.state.pendingCount == 1)
        app.runtime.send(.setFault(.unverifiedTransaction, nil))
        app.press(.escape, .char("f"))
        app.advance(30)
        #expect(try app.credits().map(\.user) == ["alice"])
        #expect(try app.storeTransactions().map(\.finished) == [true])
        #expect(app.state.pendingCount == 0)
    }

    @Test("another transaction's signature sent with this transaction's id proves nothing: unverified")
    func anotherTransactionsSignature() throws {
        let app = try Harness(user: "alice", storeKit: .two)
        app.advance(0.5)
        app.buy(Self.coins)
        let first = try #require(try app.storeTransactions().first?.0.id)
        // The check comes before Apple's receipt is read: any receipt will do.
        let receipt = "MIIA"
        var answer: Result<VerifyResponse, BackendError>?
        app.parties.backend.verify(VerifyRequest(receipt: receipt, transactionId: "1000000999", productId: Self.coins, orderId: nil, user: "alice",
                                                 signedTransaction: app.parties.store.signedTransaction(id: first))) { answer = $0 }
        app.advance(5)
        #expect(answer == .success(.unverified(.signature)))
    }

    @Test("StoreKit 1 sends no signed transaction: the fault changes nothing there")
    func storeKitOne() throws {
        let app = try Harness(user: "alice", faults: [.unverifiedTransaction])
        app.advance(0.5)
        app.buy(Self.coins)
        #expect(try app.credits().map(\.user) == ["alice"])
        #expect(!told(app).contains("unverified"))
    }
}
