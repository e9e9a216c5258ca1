import Crypto
import Foundation
import GRDB
import IAPCore

/// What the store makes once and keeps for good in its meta table: verifyReceipt's shared secret and the key it is
/// derived from (which signed receipts before they were Apple's PKCS#7), its certificate chain, its API keys.
extension StoreDatabase {
    /// Read when there, else made and written in the same transaction, so two first uses cannot keep two different ones:
    /// GRDB's write transactions are IMMEDIATE, so `keys` or `certs` beside a running iapsim waits for the lock rather
    /// than reading, then failing to write.
    public func secret(_ key: String, make: () throws -> Data) throws -> Data {
        try queue.writeTransaction { db in try Self.secret(db, key, make: make) }
    }

    /// A value kept by `secret`, if it was ever made.
    public func keptSecret(_ key: String) throws -> Data? {
        try value(key)
    }

    /// The app's shared secret for `verifyReceipt` (App Store Connect's "App-Specific Shared Secret"): 32 hex digits
    /// the backend sends as `password`, and `iapsim keys` prints for a team's own server. Derived from the old signing key,
    /// so it needs no randomness of its own, and kept so that it stays what was printed even if the derivation changes.
    public func sharedSecret() throws -> String {
        try queue.writeTransaction { db in
            let secret = try Self.secret(db, "sharedSecret") {
                let key = SymmetricKey(data: try Self.secret(db, "signingKey") { Curve25519.Signing.PrivateKey().rawRepresentation })
                let digest = HMAC<SHA256>.authenticationCode(for: Data("verifyReceipt shared secret".utf8), using: key)
                return Data(digest.prefix(16).hex.utf8)
            }
            return String(decoding: secret, as: UTF8.self)
        }
    }

    private static func secret(_ db: Database, _ key: String, make: () throws -> Data) throws -> Data {
        if let kept = try Data.fetchOne(db.cachedStatement(sql: "SELECT value FROM meta WHERE key = ?"), arguments: [key]) { return kept }
        let made = try make()
        try db.cachedStatement(sql: "INSERT INTO meta (key, value) VALUES (?, ?)").execute(arguments: [key, made])
        return made
    }
}
