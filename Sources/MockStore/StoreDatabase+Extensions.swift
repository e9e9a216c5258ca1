import AppleVocabulary
import Foundation
import GRDB

/// What Apple answers a renewal-date extension of one subscription.
public enum RenewalExtension: Sendable, Equatable {
    /// The period now ends at `expires`; `webOrderLineItemId` is its charge's.
    case extended(expires: Date, webOrderLineItemId: String?)
    case notFound
    /// Not an active auto-renewable subscription.
    case ineligible
    /// Extended twice in the last 365 days already.
    case tooMany
}

/// An extension of every active subscriber of a product, as its status reports it.
public struct MassExtension: Sendable, Equatable {
    public let requestIdentifier: String
    public let completedAt: Date
    public let succeeded: Int
    public let failed: Int
}

/// Renewal-date extensions (the Server API's Extend a Subscription Renewal Date and Extend for All Active Subscribers):
/// each remembered by its request identifier, so that a request sent again extends nothing more.
extension StoreDatabase {
    static let extensionsPerYear = 2

    static func extensionMigration(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE renewalExtension (
                requestIdentifier TEXT NOT NULL,
                originalTransactionId TEXT NOT NULL,
                at DOUBLE NOT NULL,
                expires DOUBLE NOT NULL,
                massProductId TEXT,
                PRIMARY KEY (requestIdentifier, originalTransactionId)
            );
            CREATE TABLE massExtension (
                productId TEXT NOT NULL,
                requestIdentifier TEXT NOT NULL,
                completedAt DOUBLE NOT NULL,
                succeeded INTEGER NOT NULL,
                failed INTEGER NOT NULL,
                PRIMARY KEY (productId, requestIdentifier)
            );
            """)
    }

    /// Extends the subscription whose original transaction is `original` by `days`, once per `requestIdentifier`.
    func extendRenewal(original: String, days: Int, requestIdentifier: String, at now: Date) throws -> RenewalExtension {
        try queue.writeTransaction { db in
            try extendRenewal(db, original: original, days: days, requestIdentifier: requestIdentifier, mass: nil, at: now)
        }
    }

    /// Apple tells the app's server of each subscription it extends (RENEWAL_EXTENDED), not of a request sent again.
    private func extendRenewal(_ db: Database, original: String, days: Int, requestIdentifier: String, mass productId: String?,
                               at now: Date) throws -> RenewalExtension {
        guard let chain = try Self.subscription(db, original: original) else { return .notFound }
        if let expires = try Double.fetchOne(db.cachedStatement(sql: """
            SELECT expires FROM renewalExtension WHERE requestIdentifier = ? AND originalTransactionId = ?
            """), arguments: [requestIdentifier, original]) {
            return .extended(expires: Date(timeIntervalSince1970: expires),
                             webOrderLineItemId: try Self.details(db, chain.latestTransactionId).webOrderLineItemId)
        }
        guard let extended = chain.extended(byDays: days, at: now) else { return .ineligible }
        // Apple's limit is on the extensions a team asks for one by one; extending every subscriber does not count.
        if productId == nil, try Int.fetchOne(db.cachedStatement(sql: """
            SELECT COUNT(*) FROM renewalExtension WHERE originalTransactionId = ? AND massProductId IS NULL AND at > ?
            """), arguments: [original, now.addingTimeInterval(-365 * 86_400).timeIntervalSince1970]) ?? 0 >= Self.extensionsPerYear {
            return .tooMany
        }
        try Self.noteClock(db, now)
        try extended.insert(db, onConflict: .replace)
        var latest = try Self.details(db, chain.latestTransactionId)
        latest.expiresDate = extended.expiresAt
        try Self.setDetails(db, chain.latestTransactionId, latest)
        try db.cachedStatement(sql: """
            INSERT INTO renewalExtension (requestIdentifier, originalTransactionId, at, expires, massProductId) VALUES (?, ?, ?, ?, ?)
            """).execute(arguments: [requestIdentifier, original, now.timeIntervalSince1970, extended.expiresAt.timeIntervalSince1970, productId])
        try enqueue(db, extended.notification(.renewalExtended, transaction: chain.latestTransactionId, webOrder: latest.webOrderLineItemId, at: now))
        return .extended(expires: extended.expiresAt, webOrderLineItemId: latest.webOrderLineItemId)
    }

    /// Extends every active subscription whose current product is `productId`, once per `requestIdentifier`; none when
    /// the request did not reach them (`reached`: their storefront, of `storefronts` as asked). A subscriber whose renewal
    /// is being retried is not active: Apple counts it as failed and says so (RENEWAL_EXTENSION / FAILURE), then sums
    /// the request up (RENEWAL_EXTENSION / SUMMARY).
    func extendAll(productId: String, days: Int, requestIdentifier: String, reached: Bool, storefronts: [String] = [],
                   at now: Date) throws -> MassExtension {
        try queue.writeTransaction { db in
            if let done = try Self.massExtension(db, productId: productId, requestIdentifier: requestIdentifier) { return done }
            var succeeded = 0, failed = 0
            let chains = reached ? try SubscriptionRecord.filter(Column("productId") == productId).fetchAll(db) : []
            for chain in chains where !chain.isOver {
                if chain.retryUntil != nil {
                    failed += 1
                    try enqueue(db, chain.notification(.renewalExtension, .failure, transaction: chain.latestTransactionId, at: now))
                    continue
                }
                guard chain.expiresAt > now else { continue }
                let outcome = try extendRenewal(db, original: chain.originalTransactionId, days: days, requestIdentifier: requestIdentifier,
                                                mass: productId, at: now)
                if case .extended = outcome { succeeded += 1 }
            }
            let done = MassExtension(requestIdentifier: requestIdentifier, completedAt: now, succeeded: succeeded, failed: failed)
            try enqueue(db, .extensionSummary(StoreNotification.ExtensionSummary(
                productId: productId, requestIdentifier: requestIdentifier, storefrontCountryCodes: storefronts, succeededCount: succeeded,
                failedCount: failed), at: now))
            try db.cachedStatement(sql: """
                INSERT INTO massExtension (productId, requestIdentifier, completedAt, succeeded, failed) VALUES (?, ?, ?, ?, ?)
                """).execute(arguments: [productId, requestIdentifier, now.timeIntervalSince1970, done.succeeded, done.failed])
            return done
        }
    }

    public func massExtension(productId: String, requestIdentifier: String) throws -> MassExtension? {
        try queue.inDatabase { db in try Self.massExtension(db, productId: productId, requestIdentifier: requestIdentifier) }
    }

    private static func massExtension(_ db: Database, productId: String, requestIdentifier: String) throws -> MassExtension? {
        try Row.fetchOne(db.cachedStatement(sql: """
            SELECT completedAt, succeeded, failed FROM massExtension WHERE productId = ? AND requestIdentifier = ?
            """), arguments: [productId, requestIdentifier]).map {
            MassExtension(requestIdentifier: requestIdentifier, completedAt: Date(timeIntervalSince1970: $0["completedAt"]),
                          succeeded: $0["succeeded"], failed: $0["failed"])
        }
    }
}
