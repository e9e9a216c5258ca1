import Foundation
import GRDB

/// What `iapsim state` reads of the backend through its own read-only connection.
extension BackendDatabase {
    /// Every credit in the order it was made: the live ones, and the ones Apple took back with when (a refund stays
    /// visible instead of vanishing).
    public static func ledger(_ db: Database) throws -> (live: [Credit], revoked: [RevokedCredit]) {
        var live: [Credit] = [], revoked: [RevokedCredit] = []
        for row in try Row.fetchAll(db, sql: "SELECT * FROM credit ORDER BY creditedAt, transactionId") {
            if let at = row["revokedAt"] as Double? {
                revoked.append(RevokedCredit(credit: credit(row), revokedAt: Date(timeIntervalSince1970: at)))
            } else {
                live.append(credit(row))
            }
        }
        return (live, revoked.sorted { ($0.revokedAt, $0.credit.transactionId) < ($1.revokedAt, $1.credit.transactionId) })
    }
}
