import Foundation
import GRDB

/// What a team's server tells Apple through the App Store Server API, kept where Apple keeps it.
extension StoreDatabase {
    static func serverAPIMigration(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE storeTransaction ADD COLUMN appAccountToken TEXT;
            """)
    }

    static func consumptionMigration(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE storeTransaction ADD COLUMN consumption TEXT")
    }

    /// Set App Account Token on an original transaction: every transaction of it carries the token from now on (each
    /// keeps its own copy, as a renewal is written with its chain's).
    public func setAppAccountToken(_ token: UUID, original id: String) throws {
        try queue.writeTransaction { db in
            try db.cachedStatement(sql: "UPDATE storeTransaction SET appAccountToken = ? WHERE COALESCE(originalTransactionId, id) = ?")
                .execute(arguments: [token.uuidString.lowercased(), id])
        }
    }

    /// Send Consumption Information: Apple keeps the latest the team's server sent for the transaction, as JSON.
    public func setConsumption(_ json: String, of id: String) throws {
        try queue.writeTransaction { db in
            try db.cachedStatement(sql: "UPDATE storeTransaction SET consumption = ? WHERE id = ?").execute(arguments: [json, id])
        }
    }
}
