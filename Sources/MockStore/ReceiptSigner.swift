import AppleVocabulary
import Crypto
import Foundation
import IAPCore

/// The envelope that travels base64-encoded: the exact payload bytes and their signature.
struct SignedReceipt: Codable {
    let payload: String
    let signature: String
}

/// Signs receipts with the store's private key and checks them with its public key.
public struct ReceiptSigner {
    let key: Curve25519.Signing.PrivateKey

    public var publicKey: Data { key.publicKey.rawRepresentation }

    init(rawKey: Data?) throws {
        key = try rawKey.map(Curve25519.Signing.PrivateKey.init(rawRepresentation:)) ?? Curve25519.Signing.PrivateKey()
    }

    func sign(_ receipt: Receipt) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let payload = try encoder.encode(receipt)
        let signature = try key.signature(for: payload)
        let envelope = SignedReceipt(payload: payload.base64EncodedString(), signature: signature.base64EncodedString())
        return try encoder.encode(envelope).base64EncodedString()
    }
}

/// Why a receipt was refused, in `verifyReceipt` terms.
public enum ReceiptCheck: Equatable, Sendable {
    case valid(Receipt)
    case malformed
    case notAuthenticated
}

public enum ReceiptVerifier {
    /// What Apple's `verifyReceipt` does first: parse the envelope, then check the store's signature.
    public static func check(_ base64: String, publicKey: Data) -> ReceiptCheck {
        guard let data = Data(base64Encoded: base64),
              let envelope = try? JSONDecoder().decode(SignedReceipt.self, from: data),
              let payload = Data(base64Encoded: envelope.payload),
              let signature = Data(base64Encoded: envelope.signature)
        else { return .malformed }
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey),
              key.isValidSignature(signature, for: payload)
        else { return .notAuthenticated }
        guard let receipt = try? JSONDecoder().decode(Receipt.self, from: payload) else { return .malformed }
        return .valid(receipt)
    }
}

/// A transaction as the receipt lists it: what the queue shows, Apple's subscription and refund fields, and when the
/// purchase it continues (a renewal's or a restore's original) was made.
struct ReceiptRow {
    let transaction: StoreTransaction
    let details: TransactionDetails
    let originalDate: Date
}
