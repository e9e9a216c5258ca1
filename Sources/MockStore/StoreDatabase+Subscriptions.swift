import AppleVocabulary
import Foundation
import GRDB
import IAPCore

/// The fields of a transaction that subscriptions and refunds fill, as Apple names them in a receipt.
public struct TransactionDetails: Sendable, Equatable {
    public enum Offer: String, Sendable, Equatable {
        /// `is_trial_period`
        case trial
        /// `is_in_intro_offer_period` (pay as you go, pay up front)
        case intro
    }

    public var expiresDate: Date?
    public var offer: Offer?
    public var cancellationDate: Date?
    /// Apple's `cancellation_reason`: 1 an issue in the app, 0 another reason.
    public var cancellationReason: Int?
    public var webOrderLineItemId: String?
    /// The share of an upgraded-from period refunded (prorated) when the upgrade took effect.
    public var refundedShare: Double?

    public init(expiresDate: Date? = nil, offer: Offer? = nil, cancellationDate: Date? = nil, cancellationReason: Int? = nil,
                webOrderLineItemId: String? = nil, refundedShare: Double? = nil) {
        self.expiresDate = expiresDate
        self.offer = offer
        self.cancellationDate = cancellationDate
        self.cancellationReason = cancellationReason
        self.webOrderLineItemId = webOrderLineItemId
        self.refundedShare = refundedShare
    }

    static let columns = "expiresDate, offer, cancellationDate, cancellationReason, webOrderLineItemId, refundedShare"

    init(_ row: Row, from first: Int) {
        let date = { (i: Int) in (row[first + i] as Double?).map(Date.init(timeIntervalSince1970:)) }
        self.init(expiresDate: date(0), offer: row.text(first + 1).flatMap(Offer.init(rawValue:)), cancellationDate: date(2),
                  cancellationReason: row[first + 3], webOrderLineItemId: row.text(first + 4), refundedShare: row[first + 5])
    }
}

/// One subscription chain as Apple keeps it: an account's subscription in one group, whatever level it is at now.
/// Its `originalTransactionId` is the chain's first purchase and stays the same across renewals, plan changes and a
/// resubscription after expiry.
struct SubscriptionRecord: Equatable {
    let originalTransactionId: String
    let account: String
    let group: String
    var productId: String
    /// `auto_renew_product_id`: a downgrade or crossgrade waits here for the renewal.
    var renewsAs: String
    var autoRenew: Bool
    var expiresAt: Date
    var latestTransactionId: String
    /// Intro periods still to come after the current one (pay as you go).
    var introLeft: Int
    /// While a renewal is retried: when Apple stops retrying (`billingRetryDays` after the expiry).
    var retryUntil: Date?
    /// While a renewal is retried and the grace period lasts (the service stays on): its end. Nil once it has ended.
    var graceUntil: Date?
    var failuresLeft: Int?
    /// Apple's `expiration_intent` once expired: 1 cancelled, 2 billing error.
    var expirationIntent: Int?
    var revokedAt: Date?
    /// When the store next acts on it (a renewal, a retry, the end of grace, an expiry); nil once over.
    var dueAt: Date?

    static let columns = """
        originalTransactionId, account, groupId, productId, renewsAs, autoRenew, expiresAt, latestTransactionId, introLeft, \
        retryUntil, failuresLeft, expirationIntent, revokedAt, dueAt, graceUntil
        """

    init(originalTransactionId: String, account: String, group: String, productId: String, expiresAt: Date, latestTransactionId: String,
         introLeft: Int) {
        self.originalTransactionId = originalTransactionId
        self.account = account
        self.group = group
        self.productId = productId
        renewsAs = productId
        autoRenew = true
        self.expiresAt = expiresAt
        self.latestTransactionId = latestTransactionId
        self.introLeft = introLeft
        dueAt = expiresAt
    }

    init(_ row: Row) {
        let date = { (i: Int) in (row[i] as Double?).map(Date.init(timeIntervalSince1970:)) }
        originalTransactionId = row[0]
        account = row[1]
        group = row[2]
        productId = row[3]
        renewsAs = row[4]
        autoRenew = row[5]
        expiresAt = Date(timeIntervalSince1970: row[6])
        latestTransactionId = row[7]
        introLeft = row[8]
        retryUntil = date(9)
        failuresLeft = row[10]
        expirationIntent = row[11]
        revokedAt = date(12)
        dueAt = date(13)
        graceUntil = date(14)
    }

    func save(_ db: Database) throws {
        let time = { (date: Date?) in date?.timeIntervalSince1970 }
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO subscription (\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
            .execute(arguments: [originalTransactionId, account, group, productId, renewsAs, autoRenew, expiresAt.timeIntervalSince1970,
                                 latestTransactionId, introLeft, time(retryUntil), failuresLeft, expirationIntent, time(revokedAt), time(dueAt),
                                 time(graceUntil)])
    }

    var isOver: Bool { expirationIntent != nil || revokedAt != nil }

    /// The renewal went through, or the chain ended: no more billing attempts, no grace.
    mutating func endRetry() {
        retryUntil = nil
        graceUntil = nil
        failuresLeft = nil
    }

    /// What StoreKit reports for it; `offer` is the latest transaction's.
    func status(offer: TransactionDetails.Offer?) -> SubscriptionStatus {
        let (state, date): (SubscriptionStatus.State, Date?) =
            if revokedAt != nil { (.revoked, revokedAt) }
            else if expirationIntent != nil { (.expired, expiresAt) }
            else if let graceUntil { (.gracePeriod, graceUntil) }
            else if let retryUntil { (.billingRetry, retryUntil) }
            else if !autoRenew { (.cancelled, expiresAt) }
            else if offer != nil { (.trial, expiresAt) }
            else { (.active, expiresAt) }
        return SubscriptionStatus(productId: productId, group: group, state: state, date: date,
                                  renewsAs: renewsAs == productId || !autoRenew ? nil : renewsAs, originalTransactionId: originalTransactionId)
    }
}

extension StoreDatabase {
    static func subscriptionsMigration(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE storeTransaction ADD COLUMN expiresDate DOUBLE;
            ALTER TABLE storeTransaction ADD COLUMN offer TEXT;
            ALTER TABLE storeTransaction ADD COLUMN cancellationDate DOUBLE;
            ALTER TABLE storeTransaction ADD COLUMN cancellationReason INTEGER;
            ALTER TABLE storeTransaction ADD COLUMN webOrderLineItemId TEXT;
            ALTER TABLE storeTransaction ADD COLUMN refundedShare DOUBLE;
            CREATE TABLE subscription (
                originalTransactionId TEXT PRIMARY KEY,
                account TEXT NOT NULL,
                groupId TEXT NOT NULL,
                productId TEXT NOT NULL,
                renewsAs TEXT NOT NULL,
                autoRenew INTEGER NOT NULL,
                expiresAt DOUBLE NOT NULL,
                latestTransactionId TEXT NOT NULL,
                introLeft INTEGER NOT NULL,
                retryUntil DOUBLE,
                failuresLeft INTEGER,
                expirationIntent INTEGER,
                revokedAt DOUBLE,
                dueAt DOUBLE,
                UNIQUE (account, groupId)
            );
            CREATE INDEX subscriptionDue ON subscription(dueAt) WHERE dueAt IS NOT NULL;
            """)
    }

    /// The grace period and the billing retry become two dates, as Apple has them: the service stays on through the
    /// grace period, and Apple keeps retrying past it. A chain in retry keeps its grace period's end, and now retries
    /// for the whole billing retry period.
    static func graceMigration(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE subscription ADD COLUMN graceUntil DOUBLE;
            UPDATE subscription SET graceUntil = retryUntil, retryUntil = expiresAt + \(billingRetryDays * 86_400)
            WHERE retryUntil IS NOT NULL;
            """)
    }

    /// What a new payment for a subscription will be, decided when it is added (the sheet says it at once).
    enum SubscriptionPlan: Equatable {
        /// Nothing subscribed in the group, or what was has ended: charge.
        case charge
        /// Subscribed to this very product: restored for free (and auto-renew back on).
        case owned(originalTransactionId: String)
        /// Subscribed to a product of a higher level: charge now, the upgrade takes effect at once.
        case upgrade
        /// Subscribed at a higher or the same level: no charge, the next renewal changes the product.
        case changeAtRenewal
    }

    func subscriptionPlan(account: String, productId: String, terms: SubscriptionTerms, levels: [String: Int]) throws -> SubscriptionPlan {
        try queue.inDatabase { db in try Self.plan(db, account: account, productId: productId, terms: terms, levels: levels) }
    }

    static func plan(_ db: Database, account: String, productId: String, terms: SubscriptionTerms,
                             levels: [String: Int]) throws -> SubscriptionPlan {
        guard let current = try subscription(db, account: account, group: terms.group), !current.isOver else { return .charge }
        if current.productId == productId { return .owned(originalTransactionId: current.originalTransactionId) }
        return terms.level < levels[current.productId, default: Int.max] ? .upgrade : .changeAtRenewal
    }

    static func subscription(_ db: Database, account: String, group: String) throws -> SubscriptionRecord? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(SubscriptionRecord.columns) FROM subscription WHERE account = ? AND groupId = ?"),
                         arguments: [account, group]).map(SubscriptionRecord.init)
    }

    static func subscription(_ db: Database, original: String) throws -> SubscriptionRecord? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(SubscriptionRecord.columns) FROM subscription WHERE originalTransactionId = ?"),
                         arguments: [original]).map(SubscriptionRecord.init)
    }

    static func details(_ db: Database, _ id: String) throws -> TransactionDetails {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(TransactionDetails.columns) FROM storeTransaction WHERE id = ?"), arguments: [id])
            .map { TransactionDetails($0, from: 0) } ?? TransactionDetails()
    }

    static func setDetails(_ db: Database, _ id: String, _ details: TransactionDetails) throws {
        let time = { (date: Date?) in date?.timeIntervalSince1970 }
        try db.cachedStatement(sql: """
            UPDATE storeTransaction SET expiresDate = ?, offer = ?, cancellationDate = ?, cancellationReason = ?, webOrderLineItemId = ?,
            refundedShare = ? WHERE id = ?
            """).execute(arguments: [time(details.expiresDate), details.offer?.rawValue, time(details.cancellationDate), details.cancellationReason,
                                     details.webOrderLineItemId, details.refundedShare, id])
    }

    /// Apple's `web_order_line_item_id`: one per charge of a subscription (a purchase or a renewal), the same on every
    /// device and restore of that charge.
    static func nextWebOrder(_ db: Database) throws -> String {
        let next = try Int.fetchOne(db.cachedStatement(sql: "SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'nextWebOrder'")) ?? 2_000_000_001
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('nextWebOrder', ?)").execute(arguments: [next + 1])
        return String(next)
    }

    /// A payment for a subscription went through at `date` (transaction `id`, already written as purchased): starts,
    /// resumes or upgrades the account's chain in the group, inside the caller's database transaction. Answers what
    /// the transaction became and what Apple tells the app's server.
    static func subscriptionCharged(_ db: Database, id: String, account: String, productId: String, terms: SubscriptionTerms,
                                    levels: [String: Int], at date: Date) throws -> (original: String, StoreNotification) {
        let existing = try subscription(db, account: account, group: terms.group)
        var details = TransactionDetails(webOrderLineItemId: try nextWebOrder(db))
        let kind: StoreNotification.Kind, subtype: StoreNotification.Subtype
        var chain: SubscriptionRecord
        if var current = existing, !current.isOver {
            // An upgrade: the new level starts now, and what was left of the old period is refunded.
            let old = try Self.details(db, current.latestTransactionId)
            var ended = old
            let start = try Double.fetchOne(db.cachedStatement(sql: "SELECT date FROM storeTransaction WHERE id = ?"),
                                            arguments: [current.latestTransactionId]) ?? date.timeIntervalSince1970
            let length = current.expiresAt.timeIntervalSince1970 - start
            ended.cancellationDate = date
            ended.refundedShare = length > 0 ? min(max(current.expiresAt.timeIntervalSince(date) / length, 0), 1) : 0
            try setDetails(db, current.latestTransactionId, ended)
            details.expiresDate = terms.period.end(from: date)
            current.productId = productId
            current.renewsAs = productId
            current.autoRenew = true
            current.expiresAt = details.expiresDate!
            current.latestTransactionId = id
            current.introLeft = 0
            current.endRetry()
            current.dueAt = current.expiresAt
            chain = current
            (kind, subtype) = (.didChangeRenewalPref, .upgrade)
        } else if var lapsed = existing {
            // A resubscription: the same chain, with no second intro offer.
            details.expiresDate = terms.period.end(from: date)
            lapsed = SubscriptionRecord(originalTransactionId: lapsed.originalTransactionId, account: account, group: terms.group,
                                        productId: productId, expiresAt: details.expiresDate!, latestTransactionId: id, introLeft: 0)
            chain = lapsed
            (kind, subtype) = (.subscribed, .resubscribe)
        } else {
            // A first subscription in the group: the intro offer, if the product has one, is the account's once.
            let offer = terms.introOffer
            switch offer?.mode {
            case .freeTrial?: details.offer = .trial
            case .payAsYouGo?, .payUpFront?: details.offer = .intro
            case nil: break
            }
            let count = offer?.mode == .payUpFront ? offer?.periods ?? 1 : 1
            details.expiresDate = offer.map { $0.period.end(from: date, count: count) } ?? terms.period.end(from: date)
            chain = SubscriptionRecord(originalTransactionId: id, account: account, group: terms.group, productId: productId,
                                       expiresAt: details.expiresDate!, latestTransactionId: id,
                                       introLeft: offer?.mode == .payAsYouGo ? (offer?.periods ?? 1) - 1 : 0)
            (kind, subtype) = (.subscribed, .initialBuy)
        }
        try setDetails(db, id, details)
        try chain.save(db)
        return (chain.originalTransactionId, StoreNotification(kind, subtype, account: account, productId: productId, transactionId: id,
                                                               originalTransactionId: chain.originalTransactionId,
                                                               expiresDate: chain.expiresAt, date: date))
    }

    /// The account asked to change to `productId` at the next renewal (a downgrade or crossgrade).
    static func changeAtRenewal(_ db: Database, account: String, productId: String, group: String, at date: Date) throws -> StoreNotification? {
        guard var current = try subscription(db, account: account, group: group), !current.isOver else { return nil }
        current.renewsAs = productId
        current.autoRenew = true
        try current.save(db)
        return StoreNotification(.didChangeRenewalPref, .downgrade, account: account, productId: productId, transactionId: nil,
                                 originalTransactionId: current.originalTransactionId, expiresDate: current.expiresAt, date: date)
    }

    /// A second purchase of the product the account is subscribed to (S7): a regular transaction that repeats the latest
    /// charge's fields (Apple re-delivers that charge, charging nothing), and auto-renew is back on, as Apple tells the
    /// server.
    static func subscriptionBoughtAgain(_ db: Database, id: String, original: String, at date: Date) throws -> StoreNotification? {
        guard var chain = try subscription(db, original: original) else { return nil }
        var details = try Self.details(db, chain.latestTransactionId)
        details.cancellationDate = nil
        details.refundedShare = nil
        try setDetails(db, id, details)
        guard !chain.isOver, !chain.autoRenew else { return nil }
        chain.autoRenew = true
        chain.dueAt = chain.retryUntil == nil ? chain.expiresAt : chain.dueAt
        try chain.save(db)
        return StoreNotification(.didChangeRenewalStatus, .autoRenewEnabled, account: chain.account, productId: chain.productId,
                                 transactionId: nil, originalTransactionId: original, expiresDate: chain.expiresAt, date: date)
    }

    /// The account's subscriptions, one per group, as StoreKit reports them.
    func subscriptions(account: String) throws -> [SubscriptionStatus] {
        try queue.inDatabase { db in
            try Array(Row.fetchCursor(db.cachedStatement(sql: "SELECT \(SubscriptionRecord.columns) FROM subscription WHERE account = ? ORDER BY groupId"),
                                      arguments: [account]).map(SubscriptionRecord.init))
                .map { $0.status(offer: try Self.details(db, $0.latestTransactionId).offer) }
        }
    }

    /// Turns auto-renew off (the user cancelled in Settings) or back on (resubscribed before the end).
    func setAutoRenew(_ on: Bool, original: String, at date: Date) throws -> StoreNotification? {
        try queue.write { db in
            guard var chain = try Self.subscription(db, original: original), !chain.isOver, chain.autoRenew != on else { return nil }
            try Self.noteClock(db, date)
            chain.autoRenew = on
            if chain.retryUntil == nil { chain.dueAt = chain.expiresAt }
            try chain.save(db)
            let news = StoreNotification(.didChangeRenewalStatus, on ? .autoRenewEnabled : .autoRenewDisabled, account: chain.account,
                                         productId: chain.productId, transactionId: nil, originalTransactionId: original,
                                         expiresDate: chain.expiresAt, date: date)
            try enqueue(db, news)
            return news
        }
    }

    /// The latest time the store is known to have reached: what it noted (a skip, a quit) or its latest transaction.
    func clock() throws -> Date? {
        try queue.inDatabase { db in
            let noted = try Double.fetchOne(db.cachedStatement(sql: "SELECT CAST(value AS REAL) FROM meta WHERE key = 'clock'"))
            let latest = try Double.fetchOne(db.cachedStatement(sql: "SELECT MAX(date) FROM storeTransaction"))
            return [noted, latest].compactMap { $0 }.max().map(Date.init(timeIntervalSince1970:))
        }
    }

    func noteClock(_ date: Date) throws {
        try queue.write { db in
            try db.cachedStatement(sql: """
                INSERT INTO meta (key, value) VALUES ('clock', ?) ON CONFLICT (key) DO UPDATE SET value = MAX(CAST(value AS REAL), excluded.value)
                """).execute(arguments: [date.timeIntervalSince1970])
        }
    }

    /// When the store next has to act on a subscription.
    func nextSubscriptionDue() throws -> Date? {
        try queue.inDatabase { db in
            try Double.fetchOne(db.cachedStatement(sql: "SELECT MIN(dueAt) FROM subscription WHERE dueAt IS NOT NULL"))
                .map(Date.init(timeIntervalSince1970:))
        }
    }

    /// What happened to one subscription at its due time, if any was due by `now`: a renewal (with its transaction), a
    /// failed billing attempt, the end of grace, an expiry. One database transaction each, so a kill between two loses
    /// neither and repeats neither. `billingFailures`: how many billing attempts fail, when this is a renewal's first.
    func takeDueRenewal(now: Date, terms: [String: SubscriptionTerms], billingFailures: Int)
        throws -> (StoreNotification?, renewal: StoreTransaction?)? {
        try queue.write { db in
            let taken = try takeDueRenewal(db, now: now, terms: terms, billingFailures: billingFailures)
            if let news = taken?.0 ?? nil { try enqueue(db, news) }
            return taken
        }
    }

    /// One step of a chain due by `now`. The notification is nil for a retry that failed again without news: Apple
    /// tells of the first failed charge, the grace period's end and the final expiry, not of every daily attempt.
    private func takeDueRenewal(_ db: Database, now: Date, terms: [String: SubscriptionTerms], billingFailures: Int)
        throws -> (StoreNotification?, renewal: StoreTransaction?)? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT \(SubscriptionRecord.columns) FROM subscription INDEXED BY subscriptionDue
            WHERE dueAt IS NOT NULL AND dueAt <= ? ORDER BY dueAt LIMIT 1
            """), arguments: [now.timeIntervalSince1970]) else { return nil }
        try Self.noteClock(db, now)
        var chain = SubscriptionRecord(row)
        let at = chain.dueAt ?? now
        func notification(_ kind: StoreNotification.Kind, _ subtype: StoreNotification.Subtype? = nil, transaction: String? = nil,
                          webOrder: String? = nil) -> StoreNotification {
            StoreNotification(kind, subtype, account: chain.account, productId: chain.productId, transactionId: transaction,
                              originalTransactionId: chain.originalTransactionId, webOrderLineItemId: webOrder, expiresDate: chain.expiresAt,
                              graceUntil: chain.graceUntil, date: at)
        }
        func expire(_ intent: Int, _ subtype: StoreNotification.Subtype) throws -> (StoreNotification?, renewal: StoreTransaction?) {
            chain.expirationIntent = intent
            chain.endRetry()
            chain.dueAt = nil
            try chain.save(db)
            return (notification(.expired, subtype), nil)
        }
        guard let product = terms[chain.renewsAs] ?? terms[chain.productId] else {
            return try expire(ExpirationIntent.productUnavailable, .voluntary)
        }
        guard chain.autoRenew else { return try expire(ExpirationIntent.cancelled, .voluntary) }
        // Apple stopped retrying: the subscription ends for a billing error.
        if let retryUntil = chain.retryUntil, at >= retryUntil { return try expire(ExpirationIntent.billingError, .billingRetry) }
        let failures = chain.failuresLeft ?? billingFailures
        if failures > 0 {
            // Attempts fall on whole days after the expiry, and so do the grace period's end and the retries' end.
            let first = chain.retryUntil == nil
            if first {
                chain.graceUntil = SubscriptionPeriod(days: product.gracePeriodDays).end(from: chain.expiresAt)
                chain.retryUntil = SubscriptionPeriod(days: Self.billingRetryDays).end(from: chain.expiresAt)
            }
            chain.failuresLeft = failures - 1
            chain.dueAt = min(at.addingTimeInterval(Self.billingRetryInterval), chain.retryUntil!)
            let graceEnds = chain.graceUntil.map { at >= $0 } ?? false
            if graceEnds { chain.graceUntil = nil }
            try chain.save(db)
            if graceEnds { return (notification(.gracePeriodExpired), nil) }
            return (first ? notification(.didFailToRenew, .gracePeriod) : nil, nil)
        }
        // The charge goes through: a new transaction in the chain, for the product the renewal was set to.
        let recovered = chain.retryUntil != nil
        let productId = terms[chain.renewsAs] != nil ? chain.renewsAs : chain.productId
        var details = TransactionDetails(webOrderLineItemId: try Self.nextWebOrder(db))
        // A renewal starts where the period ended; after a failed billing, where the charge finally went through.
        let start = recovered ? at : chain.expiresAt
        if chain.introLeft > 0, let offer = product.introOffer {
            details.offer = .intro
            details.expiresDate = offer.period.end(from: start)
            chain.introLeft -= 1
        } else {
            details.expiresDate = product.period.end(from: start)
            chain.introLeft = 0
        }
        let transaction = StoreTransaction(id: try Self.nextId(db), productId: productId, state: .purchased, applicationUsername: nil,
                                           date: start, originalTransactionId: chain.originalTransactionId)
        try db.cachedStatement(sql: """
            INSERT INTO storeTransaction (id, productId, state, applicationUsername, date, account, originalTransactionId, device)
            SELECT ?, ?, 'purchased', NULL, ?, account, ?, device FROM storeTransaction WHERE id = ?
            """).execute(arguments: [transaction.id, productId, start.timeIntervalSince1970, chain.originalTransactionId,
                                     chain.latestTransactionId])
        try Self.setDetails(db, transaction.id, details)
        chain.productId = productId
        chain.renewsAs = productId
        chain.expiresAt = details.expiresDate!
        chain.latestTransactionId = transaction.id
        chain.endRetry()
        chain.dueAt = chain.expiresAt
        try chain.save(db)
        return (notification(.didRenew, recovered ? .billingRecovery : nil, transaction: transaction.id, webOrder: details.webOrderLineItemId),
                transaction)
    }

    /// Whether a subscription is due by `now` (nil: none is), and whether it is a renewal's first billing attempt (whose
    /// outcome a fault decides, outside the database transaction that takes it).
    func dueRenewal(now: Date) throws -> Bool? {
        try queue.inDatabase { db in
            try Row.fetchOne(db.cachedStatement(sql: """
                SELECT autoRenew AND retryUntil IS NULL AND failuresLeft IS NULL FROM subscription INDEXED BY subscriptionDue
                WHERE dueAt IS NOT NULL AND dueAt <= ? ORDER BY dueAt LIMIT 1
                """), arguments: [now.timeIntervalSince1970]).map { $0[0] as Bool }
        }
    }

    /// How long Apple waits between two attempts to bill a failed renewal.
    static let billingRetryInterval: TimeInterval = 86_400
    /// How long after the expiry Apple keeps trying to bill a failed renewal (its billing retry period).
    static let billingRetryDays = 60

    /// Apple refunds a transaction: it keeps its place in the history with a cancellation date and reason, and a
    /// subscription it paid for ends now. Nil when there is no such paid, unrefunded transaction.
    func refund(_ id: String, reason: Int, at date: Date) throws -> (StoreRecord, TransactionDetails, StoreNotification)? {
        try queue.write { db in
            let refunded = try Self.refund(db, id, reason: reason, at: date)
            if let news = refunded?.2 { try enqueue(db, news) }
            return refunded
        }
    }

    static func refund(_ db: Database, _ named: String, reason: Int, at date: Date) throws -> (StoreRecord, TransactionDetails, StoreNotification)? {
        let id = try charge(db, repeatedBy: named)
        guard let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT \(Self.columns), \(TransactionDetails.columns) FROM storeTransaction
            WHERE id = ? AND state IN ('purchased', 'restored') AND cancellationDate IS NULL
            """), arguments: [id]) else { return nil }
        try noteClock(db, date)
        let transaction = Self.transaction(row)
        var details = TransactionDetails(row, from: 10)
        details.cancellationDate = date
        details.cancellationReason = reason
        try Self.setDetails(db, id, details)
        var expires: Date?
        if var chain = try Self.subscription(db, original: transaction.originalId), chain.revokedAt == nil {
            chain.revokedAt = date
            chain.dueAt = nil
            chain.endRetry()
            try chain.save(db)
            expires = chain.expiresAt
        }
        let record = StoreRecord(transaction: transaction, finished: row[6], account: row.text(9))
        return (record, details, StoreNotification(.refund, account: record.account, productId: transaction.productId, transactionId: id,
                                                   originalTransactionId: transaction.originalId, expiresDate: expires, date: date))
    }

    /// The charge a transaction repeats: Apple refunds what it charged, and a free re-buy or a restore (S7) charged
    /// nothing. A subscription's is the first transaction of its web order line item, anything else's its original.
    static func charge(_ db: Database, repeatedBy id: String) throws -> String {
        try String.fetchOne(db.cachedStatement(sql: """
            SELECT COALESCE(
                (SELECT c.id FROM storeTransaction c WHERE c.webOrderLineItemId = t.webOrderLineItemId AND c.state = 'purchased'
                 ORDER BY CAST(c.id AS INTEGER) LIMIT 1),
                CASE WHEN t.webOrderLineItemId IS NULL THEN t.originalTransactionId END,
                t.id)
            FROM storeTransaction t WHERE t.id = ?
            """), arguments: [id]) ?? id
    }

    /// The latest unrefunded charge of the account (what `refund` without a transaction refunds).
    func latestRefundable(account: String) throws -> String? {
        try queue.inDatabase { db in
            let cursor = try String.fetchCursor(db.cachedStatement(sql: """
                SELECT id FROM storeTransaction WHERE account = ? AND state = 'purchased' AND cancellationDate IS NULL
                ORDER BY date DESC, id DESC
                """), arguments: [account])
            while let id = try cursor.next() {
                if try Self.charge(db, repeatedBy: id) == id { return id }
            }
            return nil
        }
    }

    /// Each transaction's subscription and refund fields, for the tests' invariants.
    public func details(_ ids: [String]) throws -> [String: TransactionDetails] {
        guard !ids.isEmpty else { return [:] }
        return try queue.inDatabase { db in
            var found: [String: TransactionDetails] = [:]
            for chunk in stride(from: 0, to: ids.count, by: 500).map({ Array(ids[$0..<min($0 + 500, ids.count)]) }) {
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                for row in try Row.fetchAll(db, sql: "SELECT id, \(TransactionDetails.columns) FROM storeTransaction WHERE id IN (\(marks))",
                                            arguments: StatementArguments(chunk)) {
                    found[row[0]] = TransactionDetails(row, from: 1)
                }
            }
            return found
        }
    }

    /// Every subscription chain, for `iapsim state` and the tests.
    func subscriptionRecords() throws -> [SubscriptionRecord] {
        try queue.inDatabase { db in
            try SubscriptionRecord.fetchAll(db)
        }
    }

    /// The chains of these original transactions: what a receipt's pending renewal info reports, without reading every
    /// account's chains for each verification.
    func subscriptionRecords(originals: Set<String>) throws -> [SubscriptionRecord] {
        guard !originals.isEmpty else { return [] }
        return try queue.inDatabase { db in
            try originals.sorted().compactMap { try Self.subscription(db, original: $0) }
        }
    }
}

extension SubscriptionRecord {
    /// Every chain, also from a file the app has not migrated yet (`iapsim state` only reads): before v9 the one retry
    /// date was the grace period's end.
    static func fetchAll(_ db: Database) throws -> [SubscriptionRecord] {
        let migrated = try db.columns(in: "subscription").contains { $0.name == "graceUntil" }
        let columns = migrated ? columns : columns.replacingOccurrences(of: "dueAt, graceUntil", with: "dueAt, retryUntil")
        return try Row.fetchAll(db, sql: "SELECT \(columns) FROM subscription ORDER BY account, groupId").map(SubscriptionRecord.init)
    }
}
