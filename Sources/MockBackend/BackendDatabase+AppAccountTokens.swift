import Foundation
import GRDB

/// StoreKit 2's link between a purchase and the app's account: one `appAccountToken` per app user, made by the backend
/// the first time the app asks and the same ever after, so that any transaction carrying it names its user.
extension BackendDatabase {
    static func appAccountTokenMigration(_ db: Database) throws {
        try db.execute(sql: "CREATE TABLE appAccountToken (user TEXT PRIMARY KEY, token TEXT NOT NULL UNIQUE)")
    }

    /// The user's token, made now if they have none.
    public func appAccountToken(user: String) throws -> UUID {
        try queue.writeTransaction { db in
            if let kept = try String.fetchOne(db.cachedStatement(sql: "SELECT token FROM appAccountToken WHERE user = ?"), arguments: [user]),
               let token = UUID(uuidString: kept) {
                return token
            }
            // Numbered, not random, so that a run replays the same: only this backend reads a token back to a user.
            let next = try Int.fetchOne(db.cachedStatement(sql: "SELECT value FROM meta WHERE key = 'nextAppAccountToken'")) ?? 1
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('nextAppAccountToken', ?)").execute(arguments: [next + 1])
            let token = UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", next))!
            try db.cachedStatement(sql: "INSERT INTO appAccountToken (user, token) VALUES (?, ?)")
                .execute(arguments: [user, token.uuidString.lowercased()])
            return token
        }
    }

    /// Whose token it is; nil for one this backend never made.
    public func user(ofAppAccountToken token: UUID) throws -> String? {
        try queue.read { db in
            try String.fetchOne(db.cachedStatement(sql: "SELECT user FROM appAccountToken WHERE token = ?"), arguments: [token.uuidString.lowercased()])
        }
    }
}
