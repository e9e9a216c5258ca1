import AppleReceiptFormat
import AppleVocabulary
import AppleWire
import ArgumentParser
import Crypto
import Foundation
import IAPApp
import JWTKit
import LaunchOptions
import Launcher
import StoreSigning

/// Signatures per second of one purchase's signed transaction, made three ways one after another: jwt-kit's own `sign`
/// with the chain in `x5c` (the wire's signer when issue 26 was filed: it checks the whole chain at every signature),
/// the wire's `AppleSigner` (the chain checked once), and swift-crypto alone under the same header (as
/// iapsim-wire-floor signs: JSONEncoder, P256, base64url). Prints the three figures on one line, in that order.
struct Sign: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sign", abstract: "Print signatures per second: jwt-kit's sign, the wire's, swift-crypto's.")

    @Option var count = 2000
    @Option(name: .customLong("data-dir")) var dataDir: String
    @OptionGroup var catalog: CatalogOption

    func run() async throws {
        let directory = DataDirectory(path: dataDir)
        _ = try directory.removeAll()
        // The backend down, so that the purchase stays in the store's queue, unfinished, to be found there.
        let session = try AppSession(directory: directory, catalog: catalog.load(), faults: [.backendDown], user: "alice", latency: .instant)
        session.settle()
        session.press(.enter)
        session.settle()
        let store = session.parties.store
        guard let bought = store.transactions(after: nil, limit: 1).first, let transaction = try store.records.transaction(bought.id) else {
            throw ValidationError("the purchase to sign was not made")
        }
        let payload = JWSTransaction(transaction, signedAt: Date())
        let certificates = try StoreCertificates.of(store.database)

        let keys = JWTKeyCollection()
        await keys.add(ecdsa: try ES256PrivateKey(pem: certificates.signingKey.pemRepresentation))
        let x5c = JWTHeaderField.array(try [certificates.leaf, certificates.intermediate, certificates.root].map { .string(try StoreCertificates.pem($0)) })
        let jwtKit = try await rate { _ = try await keys.sign(payload, header: ["x5c": x5c]) }

        let signer = try AppleSigner(certificates)
        let wire = try await rate { _ = try await signer.sign(payload) }

        let header = String(try await signer.sign(payload).split(separator: ".")[0])
        let key = P256.Signing.PrivateKey()
        let encoder = JSONEncoder()
        let floor = try await rate {
            let input = header + "." + Base64URL.encode(try encoder.encode(payload))
            _ = input + "." + Base64URL.encode(try key.signature(for: Data(input.utf8)).rawRepresentation)
        }
        print(String(format: "%.0f %.0f %.0f", jwtKit, wire, floor))
    }

    /// Signatures per second of `sign`, made `count` times after a tenth as many unmeasured.
    private func rate(_ sign: () async throws -> Void) async throws -> Double {
        for _ in 0..<max(1, count / 10) { try await sign() }
        let elapsed = try await ContinuousClock().measure { for _ in 0..<count { try await sign() } }
        return Double(count) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
}
