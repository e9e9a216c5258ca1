import Foundation
import IAPCore
import IAPApp
import MockBackend
import Testing

/// The support desk's tools (issue 24, item 5; seeds 000, 002, 003): compensation by hand from the inspector, the
/// client's alarms on the backend, the receipt's hash with every verify (a replay spotted), an empty receipt's alarm.
@Suite("The support desk: compensation by key, alarms uploaded, replays spotted")
struct SupportDeskTests {
    @Test("c in the inspector asks first; y marks the order compensated: the client's next poll finishes it, and the backend's own retry of Apple credits nothing")
    func compensateByKey() throws {
        var appleDown = ArmedFaults()
        appleDown.insert(.verifyStatus, FaultArm(value: "21005"))
        let app = try Harness.paidWhile(appleDown)  // the backend keeps asking Apple: the order waits
        let order = try #require(try app.clientOrders().first)
        app.press(.char("i"), .char("c"))
        #expect(app.screen().contains("Compensate order \(order.orderId!)"))
        app.press(.escape)
        #expect(app.state.modal == .inspector)
        #expect(try !app.parties.backend.database.isCompensated(orderId: order.orderId!))
        app.press(.char("c"), .char("y"))
        #expect(try app.parties.backend.database.isCompensated(orderId: order.orderId!))
        app.press(.escape)
        app.advance(60)
        #expect(try app.clientOrders().isEmpty)
        #expect(try app.storeTransactions().allSatisfy(\.finished))
        app.session.set(.verifyStatus, nil)
        app.advance(1200)
        #expect(try app.credits().isEmpty)
        #expect(try app.parties.backend.database.appleQueue().isEmpty)
    }

    @Test("an empty receipt right after a purchase raises its own alarm, once; it reaches the backend when the backend is back")
    func emptyReceiptAlarmUploaded() throws {
        var faults = ArmedFaults()
        faults.insert(.receiptEmpty)
        faults.insert(.backendDown)
        let app = try Harness.paidWhile(faults)
        app.advance(30)
        let raised = app.state.alarms.filter { $0 == .receiptEmpty(transactionId: try! #require(try app.clientOrders().first).transactionId) }
        #expect(raised.count == 1)
        #expect(try app.parties.backend.database.clientAlarms().isEmpty)  // the backend is down
        app.session.set(.backendDown, nil)
        app.advance(5)
        let uploaded = try app.parties.backend.database.clientAlarms()
        #expect(uploaded.count == 1)
        #expect(uploaded.first?.kind == "receipt-empty" && uploaded.first?.user == "alice")
        #expect(uploaded.first?.text.contains("receipt") == true)
        app.press(.char("i"))
        #expect(app.screen(width: 120, height: 40).contains("receipt-empty"))
    }

    @Test("an alarm about an order leaves the screen once the order is credited; the backend keeps it for support (found by QA: the red ALARM stayed after the order was settled)")
    func alarmLeavesWhenSettled() throws {
        var faults = ArmedFaults()
        faults.insert(.receiptEmpty)
        let app = try Harness.paidWhile(faults)
        app.advance(30)
        #expect(app.screen(width: 120).contains("ALARM"))
        app.session.set(.receiptEmpty, nil)
        app.press(.char("f"))
        app.advance(5)
        #expect(try app.clientOrders().isEmpty)
        #expect(!app.screen(width: 120).contains("ALARM"), "\(app.screen(width: 120))")
        #expect(try app.parties.backend.database.clientAlarms().map(\.kind) == ["receipt-empty"])
    }

    @Test("an order paid with one Apple ID and verified while another is signed in says whose receipt it needs, and leaves once that Apple ID is back and it is credited (found by QA: the alarm blamed Apple's empty-receipt bug)")
    func receiptOfAnotherAppleId() throws {
        let app = try Harness(user: "alice", faults: [.backendDown])
        app.runtime.send(.intent(.signInAppleId("sandbox-1")))
        app.advance(0.5)
        app.press(.enter)
        app.advance(3)
        app.press(.escape)
        app.runtime.send(.intent(.signInAppleId("sandbox-2")))
        app.advance(1)
        app.session.set(.backendDown, nil)
        app.press(.char("f"))
        app.advance(30)
        let alarm = app.state.alarms.last.map { $0.text(.en) } ?? ""
        #expect(alarm.contains("sandbox-1") && alarm.contains("sandbox-2") && !alarm.contains("known bug"), "\(alarm)")
        app.runtime.send(.intent(.signInAppleId("sandbox-1")))
        app.advance(1)
        app.press(.char("f"))
        app.advance(30)
        #expect(try app.clientOrders().isEmpty)
        #expect(app.state.alarms.isEmpty, "\(app.state.alarms)")
    }

    @Test("a receipt's hash is the first 8 bytes of its SHA-256 in lowercase hex, the same as every earlier version wrote it")
    func receiptHashWords() {
        #expect(ReceiptHash.of("abc") == "ba7816bf8f01cfea")
        #expect([0, 9, 10, 255].hex == "00090aff")
    }

    @Test("the receipt's hash goes with the verify; the same receipt for a decided transaction again is a replay, listed with who sent it")
    func replaySpotted() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.buy("com.iapsim.noads")
        let transaction = try #require(try app.storeTransactions().first?.0)
        let receipt = try #require(app.parties.store.heldReceipt())
        func verify(as user: String) throws -> VerifyResponse? {
            let request = VerifyRequest(receipt: receipt, transactionId: transaction.id, productId: transaction.productId, orderId: nil,
                                        user: user, receiptHash: ReceiptHash.of(receipt))
            var answer: Result<VerifyResponse, BackendError>?
            app.parties.backend.verify(request) { answer = $0 }
            app.advance(2)
            return try answer?.get()
        }
        // A fresh receipt for a decided transaction is a new look, not a replay.
        #expect(try verify(as: "alice")?.creditedUser == "alice")
        #expect(try app.parties.backend.database.receiptReplays().isEmpty)
        // The same bytes again, from another user: a replay, listed for support; the ledger credits nothing new.
        #expect(try verify(as: "bob")?.creditedUser == "alice")
        let replays = try app.parties.backend.database.receiptReplays()
        #expect(replays.count == 1)
        #expect(replays.first?.transactionId == transaction.id && replays.first?.user == "bob" && replays.first?.firstUser == "alice")
        #expect(try app.credits().count == 1)
    }

    @Test("iapsim state lists support's three: the backend's queue to Apple, the clients' alarms, the replayed receipts")
    func stateListsSupport() throws {
        var faults = ArmedFaults()
        faults.insert(.verifyStatus, FaultArm(value: "21009"))
        faults.insert(.receiptEmpty, FaultArm(once: true))
        let app = try Harness.paidWhile(faults)
        app.advance(10)
        let json = try JSONSerialization.jsonObject(with: Data(try StateReport.json(for: app.directory, catalog: shippedCatalog).utf8))
        let backend = try #require((json as? [String: Any])?["backend"] as? [String: Any])
        let queue = try #require(backend["appleQueue"] as? [[String: Any]])
        #expect(queue.count == 1 && queue.first?["lastStatus"] as? Int == 21009 && queue.first?["receipt"] == nil)
        let alarms = try #require(backend["clientAlarms"] as? [[String: Any]])
        #expect(alarms.map { $0["kind"] as? String } == ["receipt-empty"])
        #expect(backend["receiptReplays"] as? [Any] != nil)
    }
}
