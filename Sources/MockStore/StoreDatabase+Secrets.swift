import Foundation
import GRDB

extension StoreDatabase {
    /// A value the store makes once and keeps for good (its certificate chain, its API keys): read when there, else made
    /// and written in the same transaction, so two first uses cannot keep two different ones.
    public func secret(_ key: String, make: () throws -> Data) throws -> Data {
        try queue.write { db in
            if let kept = try Data.fetchOne(db.cachedStatement(sql: "SELECT value FROM meta WHERE key = ?"), arguments: [key]) { return kept }
            let made = try make()
            try db.cachedStatement(sql: "INSERT INTO meta (key, value) VALUES (?, ?)").execute(arguments: [key, made])
            return made
        }
    }
}

extension StoreDatabase {
    /// A value kept by `secret`, if it was ever made.
    public func keptSecret(_ key: String) throws -> Data? {
        try value(key)
    }
}
