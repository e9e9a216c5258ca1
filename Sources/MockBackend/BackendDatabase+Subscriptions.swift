import AppleVocabulary
import Foundation
import GRDB
import IAPCore

/// A user's right to a subscription group's service, as the backend last learnt it from Apple (a verified receipt, a
/// notification): granted by date, never by "ever bought".
public struct Entitlement: Sendable, Equatable {
    public let originalTransactionId: String
    public let user: String
    public let productId: String
    public let expiresAt: Date
    /// While Apple retries a failed renewal, the service stays on until here.
    public let graceUntil: Date?
    public let revokedAt: Date?

    public func isActive(at date: Date) -> Bool {
        revokedAt == nil && date < max(expiresAt, graceUntil ?? expiresAt)
    }
}

/// A credit Apple took back (a refund), kept with when.
public struct RevokedCredit: Sendable, Equatable {
    public let credit: Credit
    public let revokedAt: Date
}

extension BackendDatabase {
    static func subscriptionsMigration(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE credit ADD COLUMN webOrderLineItemId TEXT;
            CREATE UNIQUE INDEX creditWebOrder ON credit(webOrderLineItemId) WHERE webOrderLineItemId IS NOT NULL;
            CREATE TABLE entitlement (
                originalTransactionId TEXT PRIMARY KEY,
                user TEXT NOT NULL,
                productId TEXT NOT NULL,
                expiresAt DOUBLE NOT NULL,
                graceUntil DOUBLE,
                revokedAt DOUBLE
            );
            CREATE INDEX entitlementByUser ON entitlement(user);
            """)
    }

    /// Credits one charge of a subscription exactly once, keyed by its web order line item (the same for a restore of
    /// it), to the subscriber; and moves the entitlement's end to what Apple's answer says. Nil while the subscriber
    /// cannot be known: a charge that continues a chain (a renewal, a plan change, a restore) whose first charge the
    /// backend has not seen yet. Whoever's app verifies a renewal only had it delivered: a renewal has no order of its
    /// own, and the order the client finds for it (one it makes for whoever is logged in, or the order of another
    /// payment of that product that failed) names someone else as often as the payer. The first charge, verified by
    /// its buyer, says whose the chain is, and the chain's every charge is that account's, until another app user buys
    /// it again once it entitles nobody (`lapsed`).
    /// `chain`: Apple's latest transactions of the subscription (its entries in `latest_receipt_info`).
    func creditSubscription(_ entry: Receipt.Entry, chain entries: [Receipt.Entry], renewal: PendingRenewalInfo?, orderId: String?,
                            payer: String? = nil, requester: String, claimed: Bool = false, at date: Date,
                            noting decision: ReceiptDecision? = nil) throws -> (Credit, new: Bool)? {
        try queue.writeTransaction { db in
            let chain = entry.original_transaction_id
            // The subscriber when this charge was made: a charge from before another app user bought the chain again is
            // still the one's who had it then.
            let bought = (Double(entry.purchase_date_ms) ?? 0) / 1000
            let before = try String.fetchOne(db.cachedStatement(sql: """
                SELECT fromUser FROM transfer WHERE originalTransactionId = ? AND policy = ? AND at > ? ORDER BY at, id LIMIT 1
                """), arguments: [chain, Self.resubscribed, bought])
            let subscriber = try before ?? String.fetchOne(db.cachedStatement(sql: "SELECT user FROM entitlement WHERE originalTransactionId = ?"),
                                                           arguments: [chain])
            let key = entry.web_order_line_item_id ?? entry.transaction_id
            let result: (Credit, new: Bool)
            if let existing = try Self.chargeCredit(db, key: key, transactionId: entry.transaction_id) {
                result = (existing, false)
            } else {
                let order = try orderId.flatMap { try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM orders WHERE id = ?"), arguments: [$0]) }
                let orderUser: String? = order?["user"]
                // A purchase made when the chain entitled nobody (its periods over or refunded) is a new subscription of
                // the Apple ID, not a re-buy of what it owns: it is whoever pressed Buy for it (I3), as are the chain's
                // renewals from then on. Who pressed Buy: the app user its token names, or the one whose app says it was
                // theirs (`claimed`); a code redeemed on the Apple ID names nobody.
                let buyer = payer ?? (claimed ? orderUser ?? requester : nil)
                let resubscriber = subscriber != nil && buyer != subscriber && Self.lapsed(before: entry, in: entries) ? buyer : nil
                guard let owner = resubscriber ?? subscriber ?? (entry.transaction_id == chain ? payer ?? orderUser ?? requester : nil) else { return nil }
                if let resubscriber, let subscriber {
                    try db.cachedStatement(sql: "UPDATE entitlement SET user = ? WHERE originalTransactionId = ?").execute(arguments: [resubscriber, chain])
                    try db.cachedStatement(sql: """
                        INSERT INTO transfer (originalTransactionId, productId, fromUser, toUser, policy, at) VALUES (?, ?, ?, ?, ?, ?)
                        """).execute(arguments: [chain, entry.product_id, subscriber, resubscriber, Self.resubscribed, bought])
                }
                // A charge that continues the chain keeps the order it names only when that is the subscriber's own, for
                // the product charged, and no other charge took it: the subscriber paying again (a resubscription, a
                // plan change). The order a client finds for a renewal is anyone's, and the ledger makes one instead.
                let own = try order.flatMap { row -> String? in
                    guard row["user"] == subscriber, row["productId"] == entry.product_id, let id: String = row["id"] else { return nil }
                    let taken = try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM credit WHERE orderId = ?)"), arguments: [id]) ?? true
                    return taken ? nil : id
                }
                let resolvedOrder: String? = subscriber == nil || resubscriber != nil ? (orderUser == owner ? order?["id"] : nil) : own
                result = (try Self.creditCharge(db, key: key, transactionId: entry.transaction_id, user: owner, productId: entry.product_id,
                                                orderId: resolvedOrder, at: date), true)
            }
            let grace = renewal?.grace_period_expires_date_ms.flatMap(Double.init).map { $0 / 1000 }
            // The chain's current product (Apple's renewal info) and the end of its latest period decide: not the longest
            // period ever charged, which an upgrade from a year to a month, or a resubscription after a refund, cut short.
            // A period an upgrade ended or a refund took back carries a cancellation date and counts for nothing.
            let current = renewal?.product_id ?? entry.product_id
            if let expires = (entries + [entry]).filter({ $0.product_id == current && $0.cancellation_date_ms == nil }).compactMap(\.expiresDate).max() {
                // Still the same product: a receipt read a moment before a renewal never takes the renewal back.
                try db.cachedStatement(sql: """
                    INSERT INTO entitlement (originalTransactionId, user, productId, expiresAt, graceUntil, revokedAt)
                    VALUES (?, ?, ?, ?, ?, (SELECT revokedAt FROM revokedChain WHERE originalTransactionId = ?1))
                    ON CONFLICT (originalTransactionId) DO UPDATE SET
                        expiresAt = CASE WHEN productId = excluded.productId THEN MAX(expiresAt, excluded.expiresAt) ELSE excluded.expiresAt END,
                        productId = excluded.productId,
                        graceUntil = excluded.graceUntil
                    """).execute(arguments: [chain, result.0.user, current, expires.timeIntervalSince1970, grace])
            } else if let expires = entry.expiresDate {
                // A receipt from before a plan change says nothing of the current period: it only starts an entitlement.
                try db.cachedStatement(sql: """
                    INSERT INTO entitlement (originalTransactionId, user, productId, expiresAt, graceUntil, revokedAt)
                    VALUES (?, ?, ?, ?, ?, (SELECT revokedAt FROM revokedChain WHERE originalTransactionId = ?1))
                    ON CONFLICT (originalTransactionId) DO UPDATE SET graceUntil = excluded.graceUntil
                    """).execute(arguments: [chain, result.0.user, entry.product_id, expires.timeIntervalSince1970, grace])
            }
            try decision?.note(db)
            return result
        }
    }

    /// The move a resubscription by another app user makes, as support's records name it beside the restore policy's.
    static let resubscribed = "resubscribed"

    /// Whether the chain entitled nobody when `entry` was bought: every charge before it had ended or was refunded. A
    /// period an upgrade cut short ended at the upgrade (its cancellation date), its place taken by the upgrade's: so a
    /// plan change while subscribed is no lapse, but a refunded upgrade leaves nothing running.
    static func lapsed(before entry: Receipt.Entry, in chain: [Receipt.Entry]) -> Bool {
        guard entry.transaction_id != entry.original_transaction_id, let bought = Double(entry.purchase_date_ms) else { return false }
        let earlier = chain.filter { $0.transaction_id != entry.transaction_id && (Double($0.purchase_date_ms) ?? 0) < bought }
        guard !earlier.isEmpty else { return false }
        return earlier.allSatisfy { charge in
            charge.isRefunded || (Double(charge.cancellation_date_ms ?? charge.expires_date_ms ?? "") ?? .infinity) < bought
        }
    }

    /// What a notification from Apple changes: a refund revokes; the rest move an entitlement the backend already knows
    /// (one it does not know waits for the client's verification, which names the subscriber). Once per notificationUUID.
    func apply(_ notification: StoreNotification) throws {
        try queue.writeTransaction { db in
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO appliedNotification (uuid) VALUES (?)").execute(arguments: [notification.uuid])
            guard db.changesCount > 0 else { return }
            let at = notification.date.timeIntervalSince1970
            switch notification.kind {
            case .refund, .revoke:
                // The refunded charge's credit, whichever of its transactions brought it (a subscription's charge is one
                // web order line item); not the chain's other charges, which were paid and used.
                try db.cachedStatement(sql: """
                    UPDATE credit SET revokedAt = ?1 WHERE revokedAt IS NULL AND (transactionId = ?2 OR webOrderLineItemId = ?3)
                    """).execute(arguments: [at, notification.transactionId ?? notification.originalTransactionId, notification.webOrderLineItemId])
                try db.cachedStatement(sql: "UPDATE entitlement SET revokedAt = ? WHERE originalTransactionId = ? AND revokedAt IS NULL")
                    .execute(arguments: [at, notification.originalTransactionId])
                // A subscription the backend has not verified yet is revoked all the same when it does: Apple says it once.
                if notification.expiresDate != nil {
                    try db.cachedStatement(sql: "INSERT OR REPLACE INTO revokedChain (originalTransactionId, revokedAt) VALUES (?, ?)")
                        .execute(arguments: [notification.originalTransactionId, at])
                }
            case .subscribed, .offerRedeemed, .didRenew, .didChangeRenewalPref:
                // Apple's word on the chain as it is now: its product and the end of its current period, which an
                // upgrade or a resubscription may bring nearer than the end the backend knew.
                guard let expires = notification.expiresDate, notification.subtype != .downgrade else { return }
                if notification.subtype == .initialBuy || notification.subtype == .resubscribe {
                    try db.cachedStatement(sql: "DELETE FROM revokedChain WHERE originalTransactionId = ?").execute(arguments: [notification.originalTransactionId])
                }
                try db.cachedStatement(sql: """
                    UPDATE entitlement SET productId = ?, expiresAt = ?, graceUntil = NULL, revokedAt = NULL
                    WHERE originalTransactionId = ?
                    """).execute(arguments: [notification.productId, expires.timeIntervalSince1970, notification.originalTransactionId])
                if notification.kind == .didRenew { try Self.creditRenewal(db, notification) }
            case .refundReversed:
                // What the refund revoked is owed again: the charge's credit, and the chain it ended.
                try db.cachedStatement(sql: """
                    UPDATE credit SET revokedAt = NULL WHERE transactionId = ?1 OR webOrderLineItemId = ?2
                    """).execute(arguments: [notification.transactionId ?? notification.originalTransactionId, notification.webOrderLineItemId])
                try db.cachedStatement(sql: "UPDATE entitlement SET revokedAt = NULL WHERE originalTransactionId = ?")
                    .execute(arguments: [notification.originalTransactionId])
                try db.cachedStatement(sql: "DELETE FROM revokedChain WHERE originalTransactionId = ?").execute(arguments: [notification.originalTransactionId])
            case .renewalExtended:
                // The period ends later; nothing is charged for the days added.
                guard let expires = notification.expiresDate else { return }
                try db.cachedStatement(sql: "UPDATE entitlement SET expiresAt = ? WHERE originalTransactionId = ? AND revokedAt IS NULL")
                    .execute(arguments: [expires.timeIntervalSince1970, notification.originalTransactionId])
            case .didFailToRenew:
                try db.cachedStatement(sql: "UPDATE entitlement SET graceUntil = ? WHERE originalTransactionId = ?")
                    .execute(arguments: [notification.graceUntil?.timeIntervalSince1970, notification.originalTransactionId])
            case .gracePeriodExpired, .expired:
                try db.cachedStatement(sql: "UPDATE entitlement SET graceUntil = NULL WHERE originalTransactionId = ?")
                    .execute(arguments: [notification.originalTransactionId])
            case .didChangeRenewalStatus, .oneTimeCharge, .consumptionRequest, .refundDeclined, .renewalExtension, .priceIncrease, .test:
                break
            }
        }
    }

    /// A renewal is no app's payment: it happens whether or not an app is open, on whichever device the chain was last
    /// charged on. Apple's DID_RENEW names its chain, so the server credits it to the chain's subscriber when it hears
    /// it, once by its web order line item; the app's verification of it, whoever carries it and whenever, then finds it
    /// credited. A chain whose subscriber the server does not know yet waits for the app's verification of its first charge.
    private static func creditRenewal(_ db: Database, _ notification: StoreNotification) throws {
        guard let transactionId = notification.transactionId,
              let subscriber = try String.fetchOne(db.cachedStatement(sql: "SELECT user FROM entitlement WHERE originalTransactionId = ?"),
                                                   arguments: [notification.originalTransactionId]) else { return }
        let key = notification.webOrderLineItemId ?? transactionId
        guard try chargeCredit(db, key: key, transactionId: transactionId) == nil else { return }
        _ = try creditCharge(db, key: key, transactionId: transactionId, user: subscriber, productId: notification.productId,
                             orderId: nil, at: notification.date)
    }

    /// A subscription charge's credit: one per web order line item (`key`), whichever of its transactions brought it.
    private static func chargeCredit(_ db: Database, key: String, transactionId: String) throws -> Credit? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM credit WHERE webOrderLineItemId = ? OR transactionId = ?"),
                         arguments: [key, transactionId]).map(credit)
    }

    /// Credits a subscription charge to `user`, under `orderId` or an order made for it.
    private static func creditCharge(_ db: Database, key: String, transactionId: String, user: String, productId: String, orderId: String?,
                                     at date: Date) throws -> Credit {
        let order = try orderId ?? createOrder(db, user: user, productId: productId, at: date)
        try db.cachedStatement(sql: """
            INSERT INTO credit (transactionId, user, productId, orderId, coins, creditedAt, webOrderLineItemId) VALUES (?, ?, ?, ?, 0, ?, ?)
            """).execute(arguments: [transactionId, user, productId, order, date.timeIntervalSince1970, key])
        return Credit(transactionId: transactionId, user: user, productId: productId, orderId: order, coins: 0)
    }

    /// The user's entitlements: the chains they subscribe to, and those the restore policy shared with them.
    public static func entitlements(_ db: Database, user: String) throws -> [Entitlement] {
        try Row.fetchAll(db.cachedStatement(sql: """
            SELECT * FROM entitlement WHERE user = ?1
            OR originalTransactionId IN (SELECT original FROM holding WHERE user = ?1 AND holds = 1) ORDER BY originalTransactionId
            """), arguments: [user]).map(entitlement)
    }

    /// Every entitlement, for the tests.
    public func entitlements() throws -> [Entitlement] {
        try queue.inDatabase { db in
            try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM entitlement ORDER BY user, originalTransactionId")).map(Self.entitlement)
        }
    }

    /// Every entitlement, read through `db` (`iapsim state`'s own read-only connection); none in a file written
    /// before subscriptions.
    public static func entitlements(_ db: Database) throws -> [Entitlement] {
        guard try db.tableExists("entitlement") else { return [] }
        return try Row.fetchAll(db, sql: "SELECT * FROM entitlement ORDER BY user, originalTransactionId").map(entitlement)
    }

    /// Every revoked credit with when it was revoked, for `iapsim state`: a refund stays visible.
    public func revokedCredits() throws -> [RevokedCredit] {
        try queue.inDatabase { db in
            try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM credit WHERE revokedAt IS NOT NULL ORDER BY revokedAt, transactionId")).map {
                RevokedCredit(credit: Self.credit($0), revokedAt: Date(timeIntervalSince1970: $0["revokedAt"]))
            }
        }
    }

    private static func entitlement(_ row: Row) -> Entitlement {
        let date = { (name: String) in (row[name] as Double?).map(Date.init(timeIntervalSince1970:)) }
        return Entitlement(originalTransactionId: row["originalTransactionId"], user: row["user"], productId: row["productId"],
                           expiresAt: Date(timeIntervalSince1970: row["expiresAt"]), graceUntil: date("graceUntil"), revokedAt: date("revokedAt"))
    }
}
