import AppleVocabulary
import Foundation
import GRDB
import IAPCore

/// A subscription's price raised for its subscribers (App Store Connect's price increase with the customer's consent):
/// Apple asks each subscriber to agree (PRICE_INCREASE / PENDING), tells of the agreement (PRICE_INCREASE / ACCEPTED),
/// and without it ends the subscription at the renewal (EXPIRED / PRICE_INCREASE, `expiration_intent` 3).
extension StoreDatabase {
    static func priceIncreaseMigration(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE subscription ADD COLUMN priceIncrease TEXT")
    }

    /// Raises the price of `productId` for every subscriber whose next renewal charges it and who has not agreed to a
    /// raise already. Answers how many were asked.
    func raisePrice(productId: String, at now: Date) throws -> Int {
        try queue.writeTransaction { db in
            let chains = try SubscriptionRecord.filter(Column("renewsAs") == productId).fetchAll(db)
            var asked = 0
            for var chain in chains where !chain.isOver && chain.autoRenew && chain.priceIncrease == nil {
                chain.priceIncrease = .pending
                try chain.insert(db, onConflict: .replace)
                try enqueue(db, chain.notification(.priceIncrease, .pending, productId: productId, transaction: chain.latestTransactionId, at: now))
                asked += 1
            }
            if asked > 0 { try Self.noteClock(db, now) }
            return asked
        }
    }

    /// The customer agrees to the price increase of the subscription whose original transaction is `original`: its next
    /// renewal charges the new price. Nil when none waits for an answer.
    func consentToPriceIncrease(original: String, at now: Date) throws -> StoreNotification? {
        try queue.writeTransaction { db in
            guard var chain = try Self.subscription(db, original: original), !chain.isOver, chain.priceIncrease == .pending else { return nil }
            chain.priceIncrease = .accepted
            try chain.insert(db, onConflict: .replace)
            try Self.noteClock(db, now)
            let news = chain.notification(.priceIncrease, .accepted, productId: chain.renewsAs, transaction: chain.latestTransactionId, at: now)
            try enqueue(db, news)
            return news
        }
    }
}
