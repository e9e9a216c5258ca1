import AppleVocabulary
import Foundation
import GRDB
import IAPCore

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
            UPDATE subscription SET graceUntil = retryUntil, retryUntil = expiresAt + \(SubscriptionRecord.billingRetryDays * 86_400)
            WHERE retryUntil IS NOT NULL;
            """)
    }

    /// A payment's promotional offer, the nonces Apple has taken (each once), and the offer a chain's coming renewals
    /// are priced at.
    static func promotionalOfferMigration(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE storeTransaction ADD COLUMN offerId TEXT;
            ALTER TABLE subscription ADD COLUMN offerId TEXT;
            CREATE TABLE offerNonce (nonce TEXT PRIMARY KEY, usedAt DOUBLE NOT NULL);
            """)
    }

    /// StoreKit 2's introductory offer eligibility the app's server signed for a payment: 1 gives the intro offer, 0
    /// withholds it, NULL leaves it to Apple's rule.
    static func introEligibilityMigration(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE storeTransaction ADD COLUMN introEligible INTEGER")
    }

    /// The billing plan a payment asked for, and a charge's place in a 12-month commitment; a chain's commitment.
    /// StoreKit 2's `purchase(options:)` answers a payment that fails or is cancelled as its result: no transaction is
    /// left of it, so none waits in `Transaction.unfinished` for the app to finish. The store notes which API paid and
    /// finishes such a payment itself the moment it fails, in the same write, whichever path failed it (at once, on
    /// the sheet, or when its planned step came due). Not an interrupted one: Apple may still complete it, and its
    /// failed half is what tells an app killed meanwhile that its note of who is paying must wait for the rest.
    /// A charge the App Store made to renew its chain (Apple's transactionReason RENEWAL); a customer's purchase in a
    /// chain it had (a resubscribe, an upgrade, an offer code redeemed) is not one. Charges written before this are told
    /// apart as the store made them: no one pressed Buy, no username, not an offer code's redemption.
    static func storeRenewalMigration(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE storeTransaction ADD COLUMN storeRenewal INTEGER NOT NULL DEFAULT 0;
            UPDATE storeTransaction SET storeRenewal = 1 WHERE state = 'purchased' AND originalTransactionId IS NOT NULL AND pressedBy IS NULL
                AND applicationUsername IS NULL AND sharedFrom IS NULL AND offer IS NOT 'code';
            """)
    }

    static func storeKit2ResultMigration(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE storeTransaction ADD COLUMN purchasedWithStoreKit2 INTEGER NOT NULL DEFAULT 0;
            CREATE TRIGGER storeKit2FailureAtOnce AFTER INSERT ON storeTransaction
                WHEN NEW.state = 'failed' AND NEW.purchasedWithStoreKit2 = 1 AND NEW.error IS NOT 'interrupted'
                BEGIN UPDATE storeTransaction SET finished = 1 WHERE id = NEW.id; END;
            CREATE TRIGGER storeKit2FailureLater AFTER UPDATE OF state ON storeTransaction
                WHEN NEW.state = 'failed' AND NEW.purchasedWithStoreKit2 = 1 AND NEW.error IS NOT 'interrupted'
                BEGIN UPDATE storeTransaction SET finished = 1 WHERE id = NEW.id; END;
            """)
    }

    static func billingPlanMigration(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE storeTransaction ADD COLUMN billingPlan TEXT;
            ALTER TABLE storeTransaction ADD COLUMN billingPeriod INTEGER;
            ALTER TABLE storeTransaction ADD COLUMN commitmentEndsAt DOUBLE;
            ALTER TABLE subscription ADD COLUMN commitmentPeriod INTEGER;
            ALTER TABLE subscription ADD COLUMN commitmentEndsAt DOUBLE;
            """)
    }

    /// Each offer an Apple ID redeemed a code of: once per offer.
    static func offerCodeMigration(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE offerCodeRedemption (account TEXT NOT NULL, offerId TEXT NOT NULL, productId TEXT NOT NULL, at DOUBLE NOT NULL,
                                              PRIMARY KEY (account, offerId));
            """)
    }

    /// Whether the account subscribes or subscribed to the group: who may take a promotional offer.
    func hasSubscribed(account: String, group: String) throws -> Bool {
        try queue.inDatabase { db in try Self.subscription(db, account: account, group: group) != nil }
    }

    /// Takes the nonce of a promotional offer's signature; false when Apple took it before.
    func takeOfferNonce(_ nonce: String, at date: Date) throws -> Bool {
        try queue.writeTransaction { db in
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO offerNonce (nonce, usedAt) VALUES (?, ?)")
                .execute(arguments: [nonce.lowercased(), date.timeIntervalSince1970])
            return db.changesCount > 0
        }
    }

    /// An offer code redeemed by the Apple ID (in the app's redemption sheet or the App Store), in one database
    /// transaction: a subscriber of the group gets the offer from the next renewal (and the product, if another; no
    /// transaction now); a lapsed one resubscribes, a new one subscribes, at the offer, with a `purchased` transaction
    /// in this device's queue that no order, intent or payment of the app's names. Apple tells OFFER_REDEEMED.
    /// Throws the App Store's refusal, all or nothing: `oneTimeCodeUsed` for a one-time code redeemed before,
    /// `offerCodeLimitReached` for a custom code redeemed as often as its limit, `offerCodeIneligible` for an Apple ID
    /// the offer is not for, `offerCodeUsed` for a second redemption of the offer by the Apple ID.
    func redeemOfferCode(_ offer: SubscriptionOffer, productId: String, terms: SubscriptionTerms, account: String, oneTimeCode: String? = nil,
                         at date: Date) throws -> (StoreTransaction?, StoreNotification) {
        try queue.writeTransaction { db in
            let rules = offer.codes ?? .custom
            if let oneTimeCode { try Self.takeOneTimeCode(db, oneTimeCode, account: account, at: date) }
            if let limit = rules.limit, try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM offerCodeRedemption WHERE offerId = ?"),
                                                         arguments: [offer.id]) ?? 0 >= limit {
                throw StoreError.offerCodeLimitReached
            }
            let standing = try Self.subscription(db, account: account, group: terms.group)
            let stands: SubscriptionOffer.CodeRules.Eligibility = standing.map { $0.isOver ? .expired : .existing } ?? .new
            guard rules.eligibility.contains(stands) else { throw StoreError.offerCodeIneligible }
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO offerCodeRedemption (account, offerId, productId, at) VALUES (?, ?, ?, ?)")
                .execute(arguments: [account, offer.id, productId, date.timeIntervalSince1970])
            guard db.changesCount > 0 else { throw StoreError.offerCodeUsed }
            try Self.noteClock(db, date)
            let news: StoreNotification
            if var current = standing, !current.isOver {
                current.renewsAs = productId
                current.autoRenew = true
                current.startOfferAtRenewal(offer)
                try current.insert(db, onConflict: .replace)
                news = current.notification(.offerRedeemed, productId: productId, at: date)
                try enqueue(db, news)
                return (nil, news)
            }
            let id = try Self.nextId(db)
            try db.cachedStatement(sql: """
                INSERT INTO storeTransaction (id, productId, state, applicationUsername, date, error, account, originalTransactionId, plan, device,
                                              pressedBy, offerId)
                VALUES (?, ?, 'purchased', NULL, ?, NULL, ?, NULL, NULL, ?, NULL, ?)
                """).execute(arguments: [id, productId, date.timeIntervalSince1970, account, device, offer.id])
            let (original, told) = try Self.subscriptionCharged(db, id: id, account: account, productId: productId, terms: terms, offer: offer,
                                                                 kind: .code, at: date)
            if original != id {
                try db.cachedStatement(sql: "UPDATE storeTransaction SET originalTransactionId = ? WHERE id = ?").execute(arguments: [original, id])
            }
            try Self.chargedOrder(db, id)
            try enqueue(db, told)
            return (try Self.transaction(db, id), told)
        }
    }

    func subscriptionPlan(account: String, productId: String, terms: SubscriptionTerms, levels: [String: Int]) throws -> SubscriptionPlan {
        try queue.inDatabase { db in
            SubscriptionPlan(current: try Self.subscription(db, account: account, group: terms.group), productId: productId, terms: terms, levels: levels)
        }
    }

    static func subscription(_ db: Database, account: String, group: String) throws -> SubscriptionRecord? {
        try SubscriptionRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM subscription WHERE account = ? AND groupId = ?"),
                                        arguments: [account, group])
    }

    static func subscription(_ db: Database, original: String) throws -> SubscriptionRecord? {
        try SubscriptionRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM subscription WHERE originalTransactionId = ?"), arguments: [original])
    }

    static func details(_ db: Database, _ id: String) throws -> TransactionDetails {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(TransactionDetails.columns) FROM storeTransaction WHERE id = ?"), arguments: [id])
            .map(TransactionDetails.init(row:)) ?? TransactionDetails()
    }

    static func setDetails(_ db: Database, _ id: String, _ details: TransactionDetails) throws {
        let time = { (date: Date?) in date?.timeIntervalSince1970 }
        try db.cachedStatement(sql: """
            UPDATE storeTransaction SET expiresDate = ?, offer = ?, cancellationDate = ?, cancellationReason = ?, webOrderLineItemId = ?,
            refundedShare = ?, offerId = ?, billingPeriod = ?, commitmentEndsAt = ? WHERE id = ?
            """).execute(arguments: [time(details.expiresDate), details.offer?.rawValue, time(details.cancellationDate), details.cancellationReason,
                                     details.webOrderLineItemId, details.refundedShare, details.offerId, details.billingPeriod,
                                     time(details.commitmentEndsAt), id])
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
                                    offer: SubscriptionOffer? = nil, kind: TransactionDetails.Offer = .promotional, introEligible: Bool? = nil,
                                    plan: BillingPlan? = nil, at date: Date) throws -> (original: String, StoreNotification) {
        let existing = try subscription(db, account: account, group: terms.group)
        var latest: (start: Date, details: TransactionDetails)?
        if let current = existing, !current.isOver {
            let start = try Double.fetchOne(db.cachedStatement(sql: "SELECT date FROM storeTransaction WHERE id = ?"),
                                            arguments: [current.latestTransactionId]).map(Date.init(timeIntervalSince1970:)) ?? date
            latest = (start, try Self.details(db, current.latestTransactionId))
        }
        let charge = SubscriptionCharge(existing: existing, latest: latest, id: id, account: account, productId: productId, terms: terms,
                                        offer: offer, kind: kind, introEligible: introEligible, plan: plan, webOrder: try nextWebOrder(db), at: date)
        if let ended = charge.endedLatest, let current = existing { try setDetails(db, current.latestTransactionId, ended) }
        try setDetails(db, id, charge.details)
        try charge.chain.insert(db, onConflict: .replace)
        return (charge.chain.originalTransactionId, charge.news)
    }

    /// The account asked to change to `productId` at the next renewal (a downgrade or crossgrade).
    static func changeAtRenewal(_ db: Database, account: String, productId: String, group: String, offer: SubscriptionOffer? = nil,
                                at date: Date) throws -> StoreNotification? {
        guard var changed = try subscription(db, account: account, group: group)?.changingAtRenewal(to: productId) else { return nil }
        if let offer { changed.startOfferAtRenewal(offer) }
        try changed.insert(db, onConflict: .replace)
        return changed.notification(offer == nil ? .didChangeRenewalPref : .offerRedeemed, .downgrade, productId: productId, at: date)
    }

    /// A second purchase of the product the account is subscribed to (S7): a regular transaction that repeats the latest
    /// charge's fields (Apple re-delivers that charge, charging nothing), and auto-renew is back on, as Apple tells the
    /// server. A downgrade or crossgrade waiting for the renewal is taken back: the plan renews as it is, which Apple tells
    /// as DID_CHANGE_RENEWAL_PREF without a subtype.
    /// With a promotional offer, the offer prices the renewals from the next one (Apple's rule for a current subscriber
    /// of the same product), and the plan renews as it is: Apple tells OFFER_REDEEMED without a subtype.
    static func subscriptionBoughtAgain(_ db: Database, id: String, original: String, offer: SubscriptionOffer? = nil,
                                        at date: Date) throws -> StoreNotification? {
        guard let chain = try subscription(db, original: original) else { return nil }
        try setDetails(db, id, try Self.details(db, chain.latestTransactionId).repeated)
        if let offer {
            var renewing = chain.changingAtRenewal(to: chain.productId) ?? chain
            renewing.startOfferAtRenewal(offer)
            try renewing.insert(db, onConflict: .replace)
            return renewing.notification(.offerRedeemed, at: date)
        }
        if let kept = chain.changingAtRenewal(to: chain.productId), chain.renewsAs != chain.productId {
            try kept.insert(db, onConflict: .replace)
            return kept.notification(.didChangeRenewalPref, at: date)
        }
        guard let renewing = chain.settingAutoRenew(true) else { return nil }
        try renewing.insert(db, onConflict: .replace)
        return renewing.notification(.didChangeRenewalStatus, .autoRenewEnabled, at: date)
    }

    /// The account's subscriptions, one per group, as StoreKit reports them. Read at every launch: raw SQL (see
    /// `accountChains`).
    /// `terms` by product: a churned chain's win-back offers are its product's.
    func subscriptions(account: String, terms: [String: SubscriptionTerms] = [:], at now: Date = .distantPast) throws -> [SubscriptionStatus] {
        try queue.inDatabase { db in
            try Self.accountChains(db, account: account).map { chain in
                let latest = try Self.details(db, chain.latestTransactionId)
                let named = latest.offerId.flatMap { id in terms[chain.productId]?.offer(named: id) }
                var status = chain.status(offer: latest.offer, free: named?.terms.mode == .freeTrial)
                status.eligibleWinBackOfferIds = try Self.eligibleWinBackOfferIds(db, chain: chain, terms: terms[chain.productId], at: now)
                return status
            }
        }
    }

    /// The account's chains by group. A cached statement rather than the query interface, whose first use builds its
    /// request types and reads the table's schema.
    static func accountChains(_ db: Database, account: String) throws -> [SubscriptionRecord] {
        try SubscriptionRecord.fetchAll(db.cachedStatement(sql: "SELECT * FROM subscription WHERE account = ? ORDER BY groupId"),
                                        arguments: [account])
    }

    /// Turns auto-renew off (the user cancelled in Settings) or back on (resubscribed before the end).
    func setAutoRenew(_ on: Bool, original: String, at date: Date) throws -> StoreNotification? {
        try queue.writeTransaction { db in
            guard let chain = try Self.subscription(db, original: original)?.settingAutoRenew(on) else { return nil }
            try Self.noteClock(db, date)
            try chain.insert(db, onConflict: .replace)
            let news = chain.notification(.didChangeRenewalStatus, on ? .autoRenewEnabled : .autoRenewDisabled, at: date)
            try enqueue(db, news)
            return news
        }
    }

    /// The latest time the store is known to have reached: what it noted (a skip, a quit) or its latest transaction.
    func clock() throws -> Date? {
        try queue.inDatabase(Self.knownTime)
    }

    static func knownTime(_ db: Database) throws -> Date? {
        let noted = try Double.fetchOne(db.cachedStatement(sql: "SELECT CAST(value AS REAL) FROM meta WHERE key = 'clock'"))
        let latest = try Double.fetchOne(db.cachedStatement(sql: latestTransactionDate))
        return [noted, latest].compactMap { $0 }.max().map(Date.init(timeIntervalSince1970:))
    }

    static let latestTransactionDate = "SELECT MAX(date) FROM storeTransaction"

    func noteClock(_ date: Date) throws {
        try queue.writeTransaction { db in
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
        try queue.writeTransaction { db in
            let taken = try takeDueRenewal(db, now: now, terms: terms, billingFailures: billingFailures)
            if let news = taken?.0 ?? nil { try enqueue(db, news) }
            return taken
        }
    }

    /// One step of a chain due by `now`. The notification is nil for a retry that failed again without news: Apple
    /// tells of the first failed charge, the grace period's end and the final expiry, not of every daily attempt.
    private func takeDueRenewal(_ db: Database, now: Date, terms: [String: SubscriptionTerms], billingFailures: Int)
        throws -> (StoreNotification?, renewal: StoreTransaction?)? {
        guard let due = try SubscriptionRecord.fetchOne(db.cachedStatement(sql: """
            SELECT * FROM subscription INDEXED BY subscriptionDue WHERE dueAt IS NOT NULL AND dueAt <= ? ORDER BY dueAt LIMIT 1
            """), arguments: [now.timeIntervalSince1970]) else { return nil }
        try Self.noteClock(db, now)
        var step = try due.dueStep(now: now, terms: terms, billingFailures: billingFailures, webOrder: try Self.nextWebOrder(db))
        guard case let .renewed(productId, start, details, _) = step.outcome else {
            try step.chain.insert(db, onConflict: .replace)
            return (step.notification(), nil)
        }
        // The renewal's charge joins the queue of the device the chain's latest charge was made on.
        // A renewal carries its chain's appAccountToken (StoreKit 2): the one its latest charge carried.
        let token = try String.fetchOne(db.cachedStatement(sql: "SELECT appAccountToken FROM storeTransaction WHERE id = ?"),
                                        arguments: [due.latestTransactionId]).flatMap(UUID.init(uuidString:))
        let transaction = StoreTransaction(id: try Self.nextId(db), productId: productId, state: .purchased, applicationUsername: nil,
                                           date: start, originalTransactionId: due.originalTransactionId, appAccountToken: token, isRenewal: true)
        try db.cachedStatement(sql: """
            INSERT INTO storeTransaction (id, productId, state, applicationUsername, date, account, originalTransactionId, device, appAccountToken,
                                          storeRenewal)
            SELECT ?, ?, 'purchased', NULL, ?, account, ?, device, appAccountToken, 1 FROM storeTransaction WHERE id = ?
            """).execute(arguments: [transaction.id, productId, start.timeIntervalSince1970, due.originalTransactionId, due.latestTransactionId])
        try Self.setDetails(db, transaction.id, details)
        try Self.chargedOrder(db, transaction.id)
        step.chain.latestTransactionId = transaction.id
        try step.chain.insert(db, onConflict: .replace)
        return (step.notification(transaction: transaction.id), transaction)
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

    /// Apple refunds a transaction: it keeps its place in the history with a cancellation date and reason, and a
    /// subscription it paid for ends now. Nil when there is no such paid, unrefunded transaction.
    func refund(_ id: String, because customer: ConsumptionRequestReason, at date: Date) throws -> (StoreRecord, TransactionDetails, StoreNotification)? {
        try queue.writeTransaction { db in
            try askBeforeDeciding(db, about: id, because: customer, at: date)
            guard var refunded = try refundWithShares(db, id, reason: customer.revocationReason, at: date) else { return nil }
            refunded.2.refundRequestReason = customer
            try enqueue(db, refunded.2)
            return refunded
        }
    }

    /// The refund, and what the family had through it revoked.
    func refundWithShares(_ db: Database, _ id: String, reason: Int, at date: Date) throws -> (StoreRecord, TransactionDetails, StoreNotification)? {
        guard let refunded = try Self.refund(db, id, reason: reason, at: date) else { return nil }
        try revokeShares(db, of: refunded.0.transaction.id, at: date)
        return refunded
    }

    static func refund(_ db: Database, _ named: String, reason: Int, at date: Date) throws -> (StoreRecord, TransactionDetails, StoreNotification)? {
        guard let id = try charge(db, repeatedBy: named), let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT \(Self.columns), \(TransactionDetails.columns) FROM storeTransaction
            WHERE id = ? AND state IN ('purchased', 'restored') AND cancellationDate IS NULL
            """), arguments: [id]) else { return nil }
        try noteClock(db, date)
        let transaction = Self.transaction(row)
        let details = TransactionDetails(row: row).refunded(at: date, reason: reason)
        try Self.setDetails(db, id, details)
        var expires: Date?
        if let chain = try Self.subscription(db, original: transaction.originalId)?.revoked(at: date) {
            try chain.insert(db, onConflict: .replace)
            expires = chain.expiresAt
        }
        let record = StoreRecord(row)
        return (record, details, StoreNotification(.refund, account: record.account, productId: transaction.productId, transactionId: id,
                                                   originalTransactionId: transaction.originalId, webOrderLineItemId: details.webOrderLineItemId,
                                                   expiresDate: expires, date: date))
    }

    /// The charge a transaction repeats: Apple refunds what it charged, and a free re-buy or a restore (S7) charged
    /// nothing. A subscription's is the transaction of its web order line item that has an Apple order id (in a store
    /// from before order ids, the earliest charged), anything else's its original. Not the lowest number: a re-buy is
    /// numbered when its sheet opens, and an interrupted payment's second half may charge the period before it closes.
    /// Nil for what a family member has through Family Sharing: Apple charged the member nothing, so there is nothing of
    /// theirs to refund (only the buyer's charge, which revokes the member's).
    static func charge(_ db: Database, repeatedBy id: String) throws -> String? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT originalTransactionId, webOrderLineItemId FROM storeTransaction WHERE id = ?"),
                                         arguments: [id]) else { return nil }
        let webOrder = row.text("webOrderLineItemId")
        let charged = try webOrder.flatMap { webOrder in
            try String.fetchOne(db.cachedStatement(sql: """
                SELECT id FROM storeTransaction WHERE webOrderLineItemId = ? AND state = 'purchased'
                ORDER BY appleOrderId IS NULL, date, CAST(id AS INTEGER) LIMIT 1
                """), arguments: [webOrder])
        }
        let charge = TransactionDetails.charge(repeatedBy: id, original: row.text("originalTransactionId"), webOrder: webOrder, chargeOfWebOrder: charged)
        let shared = try Bool.fetchOne(db.cachedStatement(sql: "SELECT sharedFrom IS NOT NULL FROM storeTransaction WHERE id = ?"), arguments: [charge])
        return shared == false ? charge : nil
    }

    /// What `refund` without a transaction refunds: the account's latest charge that took money; with none, its latest free one (a trial's month, revoked as a
    /// refund revokes, nothing paid back). `terms` by product: a promotional or code offer's free period is free too.
    func latestRefundable(account: String, terms: [String: SubscriptionTerms] = [:]) throws -> String? {
        try queue.inDatabase { db in
            let cursor = try Row.fetchCursor(db.cachedStatement(sql: """
                SELECT id, productId, offer, offerId FROM storeTransaction
                WHERE account = ? AND state = 'purchased' AND cancellationDate IS NULL
                ORDER BY date DESC, id DESC
                """), arguments: [account])
            var latestFree: String?
            while let row = try cursor.next() {
                let id: String = row["id"]
                guard try Self.charge(db, repeatedBy: id) == id else { continue }
                let offer = row.text("offer"), named = row.text("offerId").flatMap { terms[row["productId"]]?.offer(named: $0) }
                guard offer != TransactionDetails.Offer.trial.rawValue, named?.terms.mode != .freeTrial else {
                    latestFree = latestFree ?? id
                    continue
                }
                return id
            }
            return latestFree
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
                    found[row["id"]] = TransactionDetails(row: row)
                }
            }
            return found
        }
    }

    /// Every subscription chain, for `iapsim state` and the tests.
    func subscriptionRecords() throws -> [SubscriptionRecord] {
        try queue.inDatabase(SubscriptionRecord.all)
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
    static func all(_ db: Database) throws -> [SubscriptionRecord] {
        let migrated = try db.columns(in: databaseTableName).contains { $0.name == "graceUntil" }
        return try order(Column("account"), Column("groupId")).fetchAll(db).map { chain in
            var chain = chain
            if !migrated { chain.graceUntil = chain.retryUntil }
            return chain
        }
    }
}
