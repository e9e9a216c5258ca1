import AppleVocabulary
import Crypto
import Foundation
import Hummingbird
import Logging

/// What bench/wire.sh sets the wire against: Hummingbird and swift-crypto answering the two benchmarked routes, with
/// nothing of iapsim's in between but Apple's vocabulary (the request's type, base64url). `GET /inApps/v1/transactions/{id}` encodes a payload of the same fields and values
/// as the wire's signed transaction, with JSONEncoder, and signs it with P256 under the wire's own JWS header (its `x5c`
/// chain included), as ES256 wants; `POST /sandbox/verifyReceipt` decodes the request's JSON and answers the wire's
/// answer to the same request as it was. It checks no bearer token, reads no store, and its key is its own, not the
/// chain's leaf: what it signs is as costly to sign as the wire's, not as good.
/// usage: iapsim-wire-floor SIGNED_TRANSACTION_FILE VERIFY_ANSWER_FILE   (both as the wire answered them)
@main
struct Floor {
    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 3 else {
            FileHandle.standardError.write(Data("usage: iapsim-wire-floor SIGNED_TRANSACTION_FILE VERIFY_ANSWER_FILE\n".utf8))
            exit(2)
        }
        let answered = try JSONDecoder().decode(Answered.self, from: Data(contentsOf: URL(fileURLWithPath: arguments[1])))
        let parts = answered.signedTransactionInfo.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Base64URL.decode(parts[1]) else {
            FileHandle.standardError.write(Data("iapsim-wire-floor: \(arguments[1]) holds no signed transaction\n".utf8))
            exit(1)
        }
        let signing = Signing(header: String(parts[0]), payload: try JSONDecoder().decode(JWSTransaction.self, from: payload))
        let verifyAnswer = ByteBuffer(bytes: try Data(contentsOf: URL(fileURLWithPath: arguments[2])))

        let router = Router()
        router.get("inApps/v1/transactions/:id") { _, _ in
            try Response(status: .ok, headers: [.contentType: "application/json"],
                         body: .init(byteBuffer: ByteBuffer(string: #"{"signedTransactionInfo":""# + signing.sign() + #""}"#)))
        }
        router.post("sandbox/verifyReceipt") { request, _ in
            var request = request
            _ = try JSONDecoder().decode(VerifyReceiptRequest.self, from: Data(buffer: try await request.collectBody(upTo: 1 << 20)))
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: verifyAnswer))
        }
        var logger = Logger(label: "iapsim.floor")
        logger.logLevel = .critical
        // Served as the wire serves: HTTP/1 with the same idle timeout.
        let app = Application(
            router: router,
            server: .http1(configuration: .init(idleTimeout: .seconds(30))),
            configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "iapsim-wire-floor"),
            onServerRunning: { channel in
                print("iapsim-wire-floor: serving on http://127.0.0.1:\(channel.localAddress?.port ?? 0)")
                fflush(nil)
            },
            logger: logger)
        try await app.runService()
    }
}

/// Signs the wire's transaction as if anew: signed now, under the same header.
struct Signing: Sendable {
    let header: String
    let payload: JWSTransaction
    let key = P256.Signing.PrivateKey()

    func sign() throws -> String {
        var payload = payload
        payload.signedDate = Int64(Date().timeIntervalSince1970 * 1000)
        let input = header + "." + Base64URL.encode(try JSONEncoder().encode(payload))
        return input + "." + Base64URL.encode(try key.signature(for: Data(input.utf8)).rawRepresentation)
    }
}

struct Answered: Decodable {
    let signedTransactionInfo: String
}
