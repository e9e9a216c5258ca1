import Foundation
import IAPCore
import MockBackend
import Testing

/// The backend keeps its own queue (issue 24, item 6; seeds 000 and 003): when Apple answers a status that asks to
/// try again, the backend writes the request down, answers the client "pending", and retries Apple itself with
/// back-off; the client polls until the backend has credited it, then finishes.
@Suite("The backend's own queue: Apple retried by the server, the client polling")
struct BackendQueueTests {
    private func apple(_ status: Int, once: Bool = true) -> ArmedFaults {
        var faults = ArmedFaults()
        faults.insert(.verifyStatus, FaultArm(value: "\(status)", once: once))
        return faults
    }

    @Test("Apple's 21005 once: the backend answers pending, keeps the request, credits it on its own retry; the client finishes")
    func retriedByTheBackend() throws {
        let app = try Harness.paidWhile(apple(21005))
        #expect(try app.parties.backend.database.appleQueue().map(\.transactionId) == app.storeTransactions().map(\.0.id))
        #expect(try app.credits().isEmpty)
        #expect(app.session.timeline.entries(.en).contains { $0.text.contains("backend retrying Apple (21005)") })
        app.advance(60)
        #expect(try app.credits().count == 1)
        #expect(try app.parties.backend.database.appleQueue().isEmpty)
        #expect(try app.clientOrders().isEmpty)
        #expect(try app.storeTransactions().allSatisfy(\.finished))
    }

    @Test("the app killed while the backend retries: the backend credits without it, and the relaunch finishes once")
    func appKilledWhileTheBackendRetries() throws {
        let app = try Harness.paidWhile(apple(21005))
        app.runtime.halt(afterEffects: 0)
        app.advance(60)
        #expect(try app.credits().count == 1)
        #expect(try app.storeTransactions().allSatisfy { !$0.finished })
        try app.relaunch(user: "alice")
        app.advance(0.5)  // the prompt, once the product list has come
        app.press(.enter)  // Continue on the unfinished order found at launch
        app.advance(10)
        #expect(try app.credits().count == 1)
        #expect(try app.clientOrders().isEmpty)
        #expect(try app.storeTransactions().allSatisfy(\.finished))
    }

    @Test("the whole process killed with the request in the backend's queue: the next launch's backend takes it up again")
    func queueSurvivesAKill() throws {
        let app = try Harness.paidWhile(apple(21005, once: false))
        #expect(try app.parties.backend.database.appleQueue().count == 1)
        try app.relaunch(user: "alice", faults: [])
        app.advance(0.5)  // the prompt, once the product list has come
        app.press(.enter)
        app.advance(60)
        #expect(try app.credits().count == 1)
        #expect(try app.parties.backend.database.appleQueue().isEmpty)
        #expect(try app.storeTransactions().allSatisfy(\.finished))
    }

    @Test("Apple down for long: the backend backs off (each wait longer than the last) and the client keeps the order pending")
    func backsOff() throws {
        let app = try Harness.paidWhile(apple(21009, once: false))
        var waits: [Double] = []
        var last = try #require(try app.parties.backend.database.appleQueue().first)
        for _ in 0..<4 {
            app.advance(last.nextAt.timeIntervalSince(app.timers.now) + 0.5)
            let now = try #require(try app.parties.backend.database.appleQueue().first)
            waits.append(now.nextAt.timeIntervalSince(last.nextAt))
            last = now
        }
        #expect(zip(waits, waits.dropFirst()).allSatisfy { $0 < $1 }, "\(waits)")
        #expect(last.attempts == 5 && last.lastStatus == 21009)
        #expect(try app.credits().isEmpty)
        #expect(app.state.pendingCount == 1)
        app.session.set(.verifyStatus, nil)
        app.advance(last.nextAt.timeIntervalSince(app.timers.now) + 1)
        #expect(try app.credits().count == 1)
        app.advance(300)  // the client's next poll
        #expect(try app.credits().count == 1)
        #expect(try app.clientOrders().isEmpty)
    }
}
