import Foundation
import GRDB
import IAPCore

extension StoreDatabase {
    /// The win-back offers of `terms` the chain's Apple ID may take at `now`, best first: none while the subscription
    /// runs, retries a failed renewal or was refunded.
    static func eligibleWinBackOfferIds(_ db: Database, chain: SubscriptionRecord, terms: SubscriptionTerms?, at now: Date) throws -> [String] {
        guard let terms, !terms.winBackOffers.isEmpty, chain.expirationIntent != nil, chain.revokedAt == nil else { return [] }
        return terms.eligibleWinBackOfferIds(try winBackStanding(db, chain: chain), at: now)
    }

    /// The win-back offers of `productId` the Apple ID may take: those of the subscription it last had in the group.
    func eligibleWinBackOfferIds(account: String, productId: String, terms: SubscriptionTerms, at now: Date) throws -> [String] {
        try queue.inDatabase { db in
            guard let chain = try Self.subscription(db, account: account, group: terms.group), chain.productId == productId else { return [] }
            return try Self.eligibleWinBackOfferIds(db, chain: chain, terms: terms, at: now)
        }
    }

    /// Where the churned chain's Apple ID stands for a win-back offer: when it ended, how long it paid (charges not free, not refunded, each to its end or its upgrade), and its last win-back offer.
    private static func winBackStanding(_ db: Database, chain: SubscriptionRecord) throws -> WinBackRules.Standing {
        let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT SUM(MIN(expiresDate, COALESCE(cancellationDate, expiresDate)) - date) AS paid,
                   MAX(CASE WHEN offer = 'winBack' THEN date END) AS lastWinBack
            FROM storeTransaction
            WHERE COALESCE(originalTransactionId, id) = ? AND state = 'purchased' AND expiresDate IS NOT NULL
              AND COALESCE(offer, '') != 'trial' AND cancellationReason IS NULL
            """), arguments: [chain.originalTransactionId])
        let paid: Double = row?["paid"] ?? 0
        let last: Double? = row?["lastWinBack"]
        return WinBackRules.Standing(lapsedAt: chain.expiresAt, retrying: false, paidDays: Int(max(paid, 0) / 86_400),
                                     lastWinBack: last.map(Date.init(timeIntervalSince1970:)))
    }
}
