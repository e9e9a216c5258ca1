import Foundation

/// StoreKit 2's `Transaction.jwsRepresentation`: the transaction as a compact JWS (ES256) whose header carries the chain
/// that signed it (`x5c`: the leaf, the intermediate and the root, base64 DER), as the App Store signs it and as
/// `SignedDataVerifier` in Apple's server libraries reads it.
public struct SignedTransaction: Sendable {
    struct Header: Codable {
        var alg: String
        var x5c: [String]
    }

    /// The DER of each certificate in `x5c`, the leaf first.
    public let chain: [Data]
    public let transaction: JWSTransaction
    /// What the signature covers: the header and the payload, base64url, joined by a dot.
    public let signingInput: Data
    /// ECDSA P-256 over SHA-256 of `signingInput`: r and s, 32 bytes each.
    public let signature: Data

    /// Reads a compact JWS; nil when it is not an ES256 one with a chain and a transaction. Nothing is checked.
    public init?(compactJWS: String) {
        let parts = compactJWS.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]), let payload = Base64URL.decode(parts[1]),
              let signature = Base64URL.decode(parts[2]),
              let header = try? JSONDecoder().decode(Header.self, from: headerBytes), header.alg == "ES256",
              let transaction = try? JSONDecoder().decode(JWSTransaction.self, from: payload) else { return nil }
        let chain = header.x5c.compactMap { Data(base64Encoded: $0) }
        guard !chain.isEmpty, chain.count == header.x5c.count else { return nil }
        self.chain = chain
        self.transaction = transaction
        signingInput = Data("\(parts[0]).\(parts[1])".utf8)
        self.signature = signature
    }

    /// The compact JWS of `transaction` under `chain` (DER, the leaf first), signed by `sign` (raw r‖s of its input).
    public static func compactJWS(_ transaction: JWSTransaction, chain: [[UInt8]], sign: (Data) throws -> Data) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let header = Header(alg: "ES256", x5c: chain.map { Data($0).base64EncodedString() })
        let input = Base64URL.encode(try encoder.encode(header)) + "." + Base64URL.encode(try encoder.encode(transaction))
        return input + "." + Base64URL.encode(try sign(Data(input.utf8)))
    }
}
