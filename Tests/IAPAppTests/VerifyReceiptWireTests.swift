import AppleVocabulary
import Foundation
import IAPCore
import MockStore
import Testing

/// `verifyReceipt` as Apple's servers shape it: the request's and the response's key names, read back from the
/// encoded bytes, and the statuses a request's body and password lead to.
@Suite("verifyReceipt: Apple's request, response and statuses")
struct VerifyReceiptWireTests {
    static let monthly = "com.iapsim.vip.monthly"

    private func json(_ value: some Encodable) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as? [String: Any])
    }

    /// Asks the service with a body encoded as a server would send it, and checks the answer decodes from its own bytes.
    private func ask(_ app: Harness, _ request: VerifyReceiptRequest) throws -> (VerifyReceiptResponse, [String: Any]) {
        let service = app.parties.store.receiptService
        let response = service.verify(body: try JSONEncoder().encode(request), at: .sandbox)
        let bytes = try JSONEncoder().encode(response)
        #expect(try JSONDecoder().decode(VerifyReceiptResponse.self, from: bytes) == response)
        return (response, try json(response))
    }

    /// `beforeRenewal`: told the receipt the app held after its first charge.
    private func subscribed(beforeRenewal: (String?) -> Void = { _ in }) throws -> Harness {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        let index = shippedCatalog.firstIndex { $0.id == Self.monthly }!
        for _ in 0..<index { app.press(.down) }
        app.press(.enter)
        app.advance(5)
        app.press(.escape)
        beforeRenewal(app.parties.store.appReceipt())
        // A renewal while the app was closed: a chain of two charges.
        try app.relaunch(user: "alice", faults: [.renewalWhileClosed])
        app.advance(5)
        return app
    }

    @Test("the request travels with Apple's keys: receipt-data, password, exclude-old-transactions")
    func requestKeys() throws {
        let keys = try json(VerifyReceiptRequest(receiptData: "abc", password: "s", excludeOldTransactions: true))
        #expect(Set(keys.keys) == ["receipt-data", "password", "exclude-old-transactions"])
        #expect(keys["exclude-old-transactions"] as? Bool == true)
    }

    @Test("a consumable's receipt: status, environment and Apple's receipt fields; nothing of subscriptions; no is-retryable")
    func consumableResponse() throws {
        let app = try Harness.paidWhile()
        let receipt = try #require(app.parties.store.appReceipt())
        let secret = try app.parties.store.receiptService.sharedSecret()
        let (response, keys) = try ask(app, VerifyReceiptRequest(receiptData: receipt, password: secret))
        #expect(response.status == 0)
        #expect(keys["status"] as? Int == 0 && keys["environment"] as? String == "Sandbox")
        #expect(keys["latest_receipt_info"] == nil && keys["pending_renewal_info"] == nil && keys["latest_receipt"] == nil)
        #expect(keys["is-retryable"] == nil)
        let fields = try #require(keys["receipt"] as? [String: Any])
        #expect(fields["bundle_id"] as? String == "com.iapsim.app")
        #expect(fields["receipt_type"] as? String == "ProductionSandbox")
        #expect(fields["application_version"] as? String == "1" && fields["original_application_version"] as? String == "1.0")
        for key in ["receipt_creation_date_ms", "request_date_ms"] {
            #expect((fields[key] as? String).flatMap(Int64.init) != nil, "\(key): \(String(describing: fields[key]))")
        }
        #expect((fields["request_date"] as? String)?.hasSuffix(" Etc/GMT") == true)
        #expect((fields["request_date_pst"] as? String)?.hasSuffix(" America/Los_Angeles") == true)
        #expect(fields["request_date_ms"] as? String == Receipt.Entry.milliseconds(app.timers.now))
        let inApp = try #require(fields["in_app"] as? [[String: Any]])
        #expect(inApp.count == 1)
        #expect(inApp.first?["product_id"] as? String == "com.iapsim.coins.60")
        for key in ["transaction_id", "original_transaction_id", "purchase_date_ms", "quantity"] { #expect(inApp.first?[key] is String, "\(key)") }
    }

    @Test("a subscription's receipt with the shared secret: latest_receipt_info newest first, pending_renewal_info, latest_receipt")
    func subscriptionResponse() throws {
        let app = try subscribed()
        let receipt = try #require(app.parties.store.appReceipt())
        let secret = try app.parties.store.receiptService.sharedSecret()
        let (response, keys) = try ask(app, VerifyReceiptRequest(receiptData: receipt, password: secret))
        #expect(response.status == 0)
        #expect(keys["latest_receipt"] as? String == receipt)
        let latest = try #require(keys["latest_receipt_info"] as? [[String: Any]])
        #expect(latest.count == 2)
        let dates = latest.compactMap { ($0["purchase_date_ms"] as? String).flatMap(Int64.init) }
        #expect(dates.count == 2 && dates[0] > dates[1])
        #expect(Set(latest.compactMap { $0["original_transaction_id"] as? String }).count == 1)
        for key in ["expires_date_ms", "web_order_line_item_id", "subscription_group_identifier", "is_trial_period"] {
            #expect(latest.first?[key] is String, "\(key)")
        }
        let renewal = try #require((keys["pending_renewal_info"] as? [[String: Any]])?.first)
        #expect(renewal["auto_renew_product_id"] as? String == Self.monthly && renewal["auto_renew_status"] as? String == "1")
        #expect(renewal["original_transaction_id"] as? String == latest.first?["original_transaction_id"] as? String)

        // Without the shared secret Apple keeps a subscription's latest transactions and renewal to itself.
        let (_, anonymous) = try ask(app, VerifyReceiptRequest(receiptData: receipt))
        #expect(anonymous["status"] as? Int == 0 && anonymous["receipt"] != nil)
        #expect(anonymous["latest_receipt_info"] == nil && anonymous["pending_renewal_info"] == nil)
    }

    @Test("a receipt from before a renewal still answers with the chain's latest transactions, as Apple's does")
    func oldReceiptLatestTransactions() throws {
        var old: String?
        let app = try subscribed { old = $0 }
        let receipt = try #require(old)
        let secret = try app.parties.store.receiptService.sharedSecret()
        let (response, _) = try ask(app, VerifyReceiptRequest(receiptData: receipt, password: secret))
        #expect(response.receipt?.in_app.count == 1)
        #expect(response.latest_receipt_info?.count == 2)
        #expect(response.latest_receipt_info?.first?.transaction_id != response.receipt?.in_app.first?.transaction_id)
    }

    @Test("exclude-old-transactions leaves the latest transaction of each subscription")
    func excludeOldTransactions() throws {
        let app = try subscribed()
        let receipt = try #require(app.parties.store.appReceipt())
        let secret = try app.parties.store.receiptService.sharedSecret()
        let (all, _) = try ask(app, VerifyReceiptRequest(receiptData: receipt, password: secret))
        let (latest, _) = try ask(app, VerifyReceiptRequest(receiptData: receipt, password: secret, excludeOldTransactions: true))
        #expect(all.latest_receipt_info?.count == 2)
        #expect(latest.latest_receipt_info == [try #require(all.latest_receipt_info?.first)])
    }

    @Test("a wrong password is 21004; a body without receipt-data or not JSON at all is 21000; neither is retryable")
    func badRequests() throws {
        let app = try Harness.paidWhile()
        let receipt = try #require(app.parties.store.appReceipt())
        let (wrong, keys) = try ask(app, VerifyReceiptRequest(receiptData: receipt, password: "not the secret"))
        #expect(wrong.status == 21004 && wrong.receipt == nil)
        #expect(keys["is-retryable"] == nil)
        let service = app.parties.store.receiptService
        #expect(service.verify(body: try JSONEncoder().encode(["password": "x"]), at: .sandbox).status == 21000)
        #expect(service.verify(body: Data("receipt-data".utf8), at: .sandbox).status == 21000)
        #expect(service.verify(body: Data(), at: .production).status == 21000)
        #expect(service.verify(VerifyReceiptRequest(receiptData: "not base64!"), at: .sandbox).status == 21002)
        #expect(service.verify(VerifyReceiptRequest(receiptData: receipt), at: .production).status == 21007)
    }

    @Test("is-retryable is true for 21005, 21009 and 21100–21199, absent for the rest")
    func retryable() throws {
        for status in [21005, 21009, 21100, 21150, 21199] {
            #expect(try json(VerifyReceiptResponse(status: status))["is-retryable"] as? Bool == true, "\(status)")
        }
        for status in [0, 21000, 21002, 21003, 21004, 21006, 21007, 21008, 21010, 21200] {
            #expect(try json(VerifyReceiptResponse(status: status))["is-retryable"] == nil, "\(status)")
        }
    }

    @Test("the shared secret is made once per store database: 32 hex digits, the same after a relaunch")
    func sharedSecret() throws {
        let app = try Harness.paidWhile()
        let secret = try app.parties.store.receiptService.sharedSecret()
        #expect(secret.count == 32 && secret.allSatisfy(\.isHexDigit))
        try app.relaunch(user: "alice")
        #expect(try app.parties.store.receiptService.sharedSecret() == secret)
        #expect(try StoreDatabase(path: app.directory.store).sharedSecret() == secret)
    }

    @Test("the backend's answer to the client has stable camelCase keys and a result discriminator")
    func backendResponseKeys() throws {
        let credited = try json(VerifyResponse.credited(user: "alice", new: true))
        #expect(credited["result"] as? String == "credited" && credited["creditedUser"] as? String == "alice")
        #expect(credited["newlyCredited"] as? Bool == true && credited["appleStatus"] as? Int == 0)
        #expect(Set(try json(VerifyResponse.compensated).keys) == ["result"])
        let misconfigured = try json(VerifyResponse.apple(21004))
        #expect(misconfigured["result"] as? String == "serverMisconfigured" && misconfigured["appleStatus"] as? Int == 21004)
        #expect(VerifyResponse.Verdict.allCases.map(\.rawValue)
            == ["credited", "compensated", "pending", "notInReceipt", "rejected", "appleUnavailable", "serverMisconfigured", "unverified"])
        let unverified = try json(VerifyResponse.unverified(.bundle))
        #expect(unverified["result"] as? String == "unverified" && unverified["failedCheck"] as? String == "bundle")
        let bytes = try JSONEncoder().encode(VerifyResponse.apple(21005))
        #expect(try JSONDecoder().decode(VerifyResponse.self, from: bytes) == VerifyResponse(result: .appleUnavailable, appleStatus: 21005))
    }
}
