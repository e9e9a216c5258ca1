import Crypto
import Foundation
import IAPCore

/// A subscription offers key in usable form: the private half signs (the app's server), the public half checks (Apple).
/// Read from a .storekit file's `subscriptionOffersKeyPair` (base64 PKCS#8, as Xcode writes it, or PEM), or iapsim's own,
/// made once per data directory.
public struct OffersKeyPair: Sendable {
    public let id: String
    let privateKey: P256.Signing.PrivateKey

    public init?(_ key: SubscriptionOffersKey) {
        let text = key.privateKey.trimmingCharacters(in: .whitespacesAndNewlines)
        if let pem = try? P256.Signing.PrivateKey(pemRepresentation: text) {
            privateKey = pem
        } else if let der = Data(base64Encoded: text, options: .ignoreUnknownCharacters),
                  let parsed = try? P256.Signing.PrivateKey(derRepresentation: der) {
            privateKey = parsed
        } else {
            return nil
        }
        id = key.id
    }

    /// The key as App Store Connect hands it out (base64 PKCS#8 with its id).
    public var key: SubscriptionOffersKey {
        SubscriptionOffersKey(id: id, privateKey: privateKey.derRepresentation.base64EncodedString())
    }

    /// Whether `signature` (base64 DER, as Apple's libraries make it; raw r‖s is taken too) signs `text` with this key.
    public func verifies(_ signature: String, of text: String) -> Bool {
        guard let bytes = Data(base64Encoded: signature) else { return false }
        let parsed = (try? P256.Signing.ECDSASignature(derRepresentation: bytes)) ?? (try? P256.Signing.ECDSASignature(rawRepresentation: bytes))
        guard let parsed else { return false }
        return privateKey.publicKey.isValidSignature(parsed, for: Data(text.utf8))
    }

    /// Whether `signature` (r‖s, as a JWS carries it) signs `data` with this key.
    public func verifies(rawSignature signature: Data, of data: Data) -> Bool {
        guard let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
        return privateKey.publicKey.isValidSignature(parsed, for: data)
    }

    /// The private key in PEM, as a team's server (Apple's `PromotionalOfferSignatureCreator`) loads it.
    public var privateKeyPEM: String { privateKey.pemRepresentation }

    /// iapsim's own offers key, made the first time it is asked for and kept in the store's database.
    public static func own(in database: StoreDatabase) throws -> OffersKeyPair? {
        let data = try database.secret("subscriptionOffersKey") {
            let id = database.random.string(length: 10, from: Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"))
            return Data("\(id) \(P256.Signing.PrivateKey().derRepresentation.base64EncodedString())".utf8)
        }
        let parts = String(decoding: data, as: UTF8.self).split(separator: " ").map(String.init)
        guard parts.count == 2 else { return nil }
        return OffersKeyPair(SubscriptionOffersKey(id: parts[0], privateKey: parts[1]))
    }
}
