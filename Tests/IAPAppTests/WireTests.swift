import AppleReceiptFormat
import AppleVocabulary
import AppleWire
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import IAPApp
import IAPCore
import JWTKit
import StoreSigning
import X509
import Launcher
import WireLauncher
import Testing
@testable import MockStore

@Suite("The wire beside the running app (--serve)")
struct WireTests {
    @Test("a purchase made on screen is in the Server API's answer at once, signed by the directory's chain; after a relaunch the server answers from the new parties; a token from an unknown key is refused")
    func purchaseVisibleAtOnce() async throws {
        let app = try Harness(user: "alice")
        let key = try APIKey.create(in: app.parties.store.database)
        let root = try StoreCertificates.of(app.parties.store.database).root
        let runner = try ServerRunner(parties: app.parties, catalog: shippedCatalog, now: { app.timers.now })
        defer { runner.stop() }
        runner.start(port: 0)
        // The server's handlers run on Swift's cooperative threads: this test waits for them without holding one.
        for _ in 0..<2000 where runner.state == .starting { try await Task.sleep(for: .milliseconds(10)) }
        guard case let .serving(port) = runner.state else {
            Issue.record("the server did not start: \(runner.state)")
            return
        }
        app.advance(0.5)
        app.press(.enter)
        app.advance(5)
        let bought = try #require(try app.storeTransactions().first?.0)
        let token = try await Self.token(key.privateKeyPEM, keyId: key.keyId, issuer: key.issuerId)

        let (status, body) = try await Self.get("http://127.0.0.1:\(port)/inApps/v1/transactions/\(bought.id)", token: token, pumping: runner)
        #expect(status == 200)
        let signed = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])["signedTransactionInfo"] as? String
        let decoded = try await X5CVerifier(rootCertificates: [Certificate(derEncoded: root)]).verifyJWS(try #require(signed), as: JWSTransaction.self)
        #expect(decoded.transactionId == bought.id)
        #expect(decoded.productId == bought.productId)
        #expect(decoded.bundleId == Receipt.bundleId)

        try app.relaunch(user: "alice")
        runner.attach(app.parties)
        app.advance(1)
        #expect(try await Self.get("http://127.0.0.1:\(port)/inApps/v1/transactions/\(bought.id)", token: token, pumping: runner).status == 200)

        let stranger = try await Self.token(ES256PrivateKey().pemRepresentation, keyId: key.keyId, issuer: key.issuerId)
        #expect(try await Self.get("http://127.0.0.1:\(port)/inApps/v1/transactions/\(bought.id)", token: stranger, pumping: runner).status == 401)
    }

    private struct Claims: JWTPayload {
        let iss: IssuerClaim
        let aud: AudienceClaim
        let exp: ExpirationClaim
        let bid: String
        func verify(using algorithm: some JWTAlgorithm) throws {}
    }

    private static func token(_ privateKeyPEM: String, keyId: String, issuer: String) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: try ES256PrivateKey(pem: privateKeyPEM), kid: JWKIdentifier(string: keyId))
        return try await keys.sign(Claims(iss: .init(value: issuer), aud: .init(value: ["appstoreconnect-v1"]),
                                          exp: .init(value: Date().addingTimeInterval(600)), bid: Receipt.bundleId),
                                   kid: JWKIdentifier(string: keyId))
    }

    /// A GET from another thread while this test runs the server's work, as the app's main loop does.
    private static func get(_ url: String, token: String, pumping runner: ServerRunner) async throws -> (status: Int, body: Data) {
        let answer = Answer()
        var request = URLRequest(url: URL(string: url)!)
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        URLSession.shared.dataTask(with: request) { data, response, _ in
            answer.set(((response as? HTTPURLResponse)?.statusCode ?? 0, data ?? Data()))
        }.resume()
        let deadline = Date().addingTimeInterval(120)  // only against a hang; a loaded machine can be slow to answer
        while answer.get() == nil, Date() < deadline {
            runner.thread.runJobs()
            try await Task.sleep(for: .milliseconds(5))
        }
        return try #require(answer.get())
    }

    private final class Answer: @unchecked Sendable {
        private let lock = NSLock()
        private var value: (Int, Data)?
        func set(_ new: (Int, Data)) { lock.lock(); value = new; lock.unlock() }
        func get() -> (Int, Data)? { lock.lock(); defer { lock.unlock() }; return value }
    }
}
