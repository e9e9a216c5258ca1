import Foundation
import IAPCore
import Testing

/// How the client lives with each of Apple's `verifyReceipt` statuses, as the backend reports them.
@Suite("Apple's statuses through the client")
struct AppleStatusTests {
    private func forced(_ status: Int) -> ArmedFaults {
        var faults = ArmedFaults()
        faults.insert(.verifyStatus, FaultArm(value: "\(status)"))
        return faults
    }

    private func attempts(_ app: Harness) throws -> Int {
        try #require(try app.clientOrders().first).attempts
    }

    @Test("21004 (the server's shared secret is wrong) is not retried in a loop: one attempt, an alarm, the order pending until the next launch")
    func sharedSecretMismatch() throws {
        let app = try Harness.paidWhile(forced(21004))
        app.advance(120)
        #expect(try attempts(app) == 1)
        #expect(app.state.pendingCount == 1)
        #expect(try app.credits().isEmpty)
        #expect(try app.storeTransactions().allSatisfy { !$0.finished })
        #expect(app.state.alarms.contains { $0.text(.en).contains("shared secret") }, "\(app.state.alarms)")
        // The network coming back is a trigger for every other order; this one waits for a launch or a login.
        app.session.set(.backendDown, nil)
        app.advance(60)
        #expect(try attempts(app) == 1)

        try app.relaunch(user: "alice")
        app.advance(0.5)  // the prompt, once the product list has come
        app.press(.enter)  // Continue on the unfinished order found at launch
        app.advance(60)
        #expect(try attempts(app) == 2)
        #expect(try app.credits().isEmpty)

        try app.relaunch(user: "alice", faults: [])
        app.advance(0.5)  // the prompt, once the product list has come
        app.press(.enter)
        app.advance(10)
        #expect(try app.credits().count == 1)
        #expect(try app.clientOrders().isEmpty)
        #expect(try app.storeTransactions().allSatisfy(\.finished))
    }

    @Test("21002 (Apple: malformed, or the service had a temporary issue: try again), 21005 and 21009 are retried by the backend with back-off while the client polls, then credited once Apple answers",
          arguments: [21002, 21005, 21009])
    func retriedUntilApple(answers status: Int) throws {
        let app = try Harness.paidWhile(forced(status))
        app.advance(20)
        #expect(try attempts(app) >= 2)
        #expect(try app.parties.backend.database.appleQueue().first?.attempts ?? 0 >= 2)
        #expect(try app.credits().isEmpty)
        app.session.set(.verifyStatus, nil)
        app.advance(300)
        #expect(try app.credits().count == 1)
        #expect(try app.clientOrders().isEmpty)
    }

    @Test("a transaction the receipt does not list is answered as such (not 21005) and the client retries it")
    func notInReceipt() throws {
        let app = try Harness.paidWhile()
        app.runtime.halt(afterEffects: 0)
        app.parties.faults.set(.backendDown, nil)
        let transaction = try #require(try app.storeTransactions().first?.0)
        let request = VerifyRequest(receipt: app.parties.store.appReceipt()!, transactionId: "999", productId: transaction.productId,
                                    orderId: nil, user: "alice")
        var answer: Result<VerifyResponse, BackendError>?
        app.parties.backend.verify(request) { answer = $0 }
        app.advance(2)
        let response = try #require(try answer?.get())
        #expect(response == .notInReceipt)
        #expect(VerifyOutcome(.success(response)) == .retry(reason: .notInReceipt))
        #expect(try app.credits().isEmpty)
    }
}

extension AppleStatusTests {
    @Test("receipt-empty:once is spent by the verify that finds the receipt empty: that verify retries, the next one credits")
    func receiptEmptyOnce() throws {
        var faults = ArmedFaults()
        faults.insert(.receiptEmpty, FaultArm(once: true))
        let app = try Harness.paidWhile(faults)
        app.advance(30)
        let said = app.session.timeline.entries(.en).map(\.text)
        #expect(said.contains { $0.contains("receipt empty") }, "\(said)")
        #expect(try app.credits().count == 1)
        #expect(try app.clientOrders().isEmpty)
    }
}
