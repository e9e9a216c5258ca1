import Crypto
import Foundation
import GRDB

extension StoreDatabase {
    /// The receipt signing key, made once per store database and kept in its meta table.
    func signingKey() throws -> Data {
        try queue.write { db in try Self.signingKey(db) }
    }

    /// The app's shared secret for `verifyReceipt` (App Store Connect's "App-Specific Shared Secret"): 32 hex digits
    /// the backend sends as `password`, and `iapsim keys` prints for a team's own server. Derived from the signing key,
    /// so it needs no randomness of its own, and kept in the meta table so that it stays what was printed even if the
    /// derivation ever changes.
    public func sharedSecret() throws -> String {
        try queue.write { db in
            if let stored = try Data.fetchOne(db.cachedStatement(sql: "SELECT value FROM meta WHERE key = 'sharedSecret'")) {
                return String(decoding: stored, as: UTF8.self)
            }
            let key = SymmetricKey(data: try Self.signingKey(db))
            let digest = HMAC<SHA256>.authenticationCode(for: Data("verifyReceipt shared secret".utf8), using: key)
            let secret = digest.prefix(16).map { String(format: "%02x", $0) }.joined()
            try db.cachedStatement(sql: "INSERT INTO meta (key, value) VALUES ('sharedSecret', ?)").execute(arguments: [Data(secret.utf8)])
            return secret
        }
    }

    private static func signingKey(_ db: Database) throws -> Data {
        if let stored = try Data.fetchOne(db.cachedStatement(sql: "SELECT value FROM meta WHERE key = 'signingKey'")) { return stored }
        let key = Curve25519.Signing.PrivateKey().rawRepresentation
        try db.cachedStatement(sql: "INSERT INTO meta (key, value) VALUES ('signingKey', ?)").execute(arguments: [key])
        return key
    }
}
