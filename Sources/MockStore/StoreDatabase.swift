import AppleVocabulary
import DataFiles
import Foundation
import GRDB
import IAPCore

/// One transaction as Apple holds it: what the app sees, whether the app finished it, and what only Apple knows
/// (the account that paid). `iapsim state`, the tests and the campaign read these.
public struct StoreRecord: Sendable, Equatable {
    public let transaction: StoreTransaction
    public let finished: Bool
    /// The Apple ID charged (or restored to); nil for transactions written before accounts were recorded.
    public let account: String?
    /// The app user who pressed Buy (or Restore): the simulation's own record, which no real party has. The tests check
    /// that credit reaches this person (I3); the app and support never read it.
    public let pressedBy: String?

    public init(transaction: StoreTransaction, finished: Bool, account: String?, pressedBy: String?) {
        self.transaction = transaction
        self.finished = finished
        self.account = account
        self.pressedBy = pressedBy
    }

    init(_ row: Row) {
        self.init(transaction: StoreDatabase.transaction(row), finished: row["finished"], account: row.text("account"),
                  pressedBy: row.text("pressedBy"))
    }
}

/// The store's own durable state: every transaction, what is planned for it, and the receipt signing key.
/// Survives app kills.
public final class StoreDatabase {
    let queue: DatabaseQueue
    /// The device whose StoreKit queue this connection is: it adds to, reads and blocks on that device's queue only,
    /// while ownership (Apple's servers) is the account's on every device.
    public let device: String
    /// Whether what the store tells the app's server also goes out to a `--notify` server, and which products are
    /// consumables; set before the queue takes any step.
    public var outbox = OutboxPolicy()
    /// What the store draws at random: its notifications' UUIDs, its receipts' opaque values, its offer codes and key id.
    public var random = RandomSource.system
    /// The catalog's family-shareable products (A4): what a member of the buyer's family owns too.
    public var familyShareable: Set<String> = []
    /// Family-shared purchases revoked by the writes since the queue last looked: whose Apple ID, which product.
    var revokedShares: [(appleId: String, productId: String)] = []
    /// The Apple ID signed in on this device (Settings › App Store), which pays for every app user and owns what it
    /// pays for (A1); its unfinished transactions are the only ones the device's queue shows. Nil: none was ever
    /// signed in, and each app user pays with an Apple ID of their own name (iapsim before Apple IDs).
    public internal(set) var appleId: String?

    public init(path: String, device: String = StoreDatabase.firstDevice) throws {
        self.device = device
        queue = try DataFile.open(path, identity: .store, migrations: [
            ("v1", { db in
                try db.execute(sql: """
                    CREATE TABLE storeTransaction (
                        id TEXT PRIMARY KEY,
                        productId TEXT NOT NULL,
                        state TEXT NOT NULL,
                        applicationUsername TEXT,
                        date DOUBLE NOT NULL,
                        error TEXT,
                        finished INTEGER NOT NULL DEFAULT 0
                    );
                    CREATE INDEX storeTransactionUnfinished ON storeTransaction(finished) WHERE finished = 0;
                    CREATE TABLE meta (key TEXT PRIMARY KEY, value BLOB NOT NULL);
                    """)
            }),
            // The receipt lists non-consumables by product; without this it scanned the whole history twice a purchase.
            ("v2-by-product", { db in
                try db.execute(sql: "CREATE INDEX storeTransactionByProduct ON storeTransaction(productId, state)")
            }),
            // Who paid (ownership belongs to the store account), what a restore restores, and Apple's plan for later.
            ("v3-accounts-and-plans", { db in
                try db.execute(sql: """
                    ALTER TABLE storeTransaction ADD COLUMN account TEXT;
                    ALTER TABLE storeTransaction ADD COLUMN originalTransactionId TEXT;
                    ALTER TABLE storeTransaction ADD COLUMN plan TEXT;
                    CREATE INDEX storeTransactionPlanned ON storeTransaction(id) WHERE plan IS NOT NULL;
                    CREATE INDEX storeTransactionOwned ON storeTransaction(account, productId, state);
                    """)
            }),
            // The queue is read a batch at a time, oldest first, without sorting all of it for each batch.
            ("v4-queue-order", { db in
                try db.execute(sql: "CREATE INDEX storeTransactionQueue ON storeTransaction(date, id) WHERE finished = 0")
            }),
            // The launch's agreement check reads the latest finished purchases; without this it read the whole table
            // when nothing was finished yet.
            ("v5-finished-paid", { db in
                try db.execute(sql: """
                    CREATE INDEX storeTransactionFinishedPaid ON storeTransaction(finished) WHERE finished = 1 AND state IN ('purchased', 'restored')
                    """)
            }),
            ("v7-subscriptions", StoreDatabase.subscriptionsMigration),
            // Each device of an account has its own queue of unfinished transactions; what was there is the first device's.
            ("v6-devices", { db in
                try db.execute(sql: "ALTER TABLE storeTransaction ADD COLUMN device TEXT NOT NULL DEFAULT '\(StoreDatabase.firstDevice)'")
            }),
            // What the store tells the app's server, written with the change it tells of (App Store Server Notifications).
            ("v8-notification-outbox", StoreDatabase.outboxMigration),
            ("v9-grace-and-retry", StoreDatabase.graceMigration),
            // A refund finds the charge a free re-buy or a restore repeats by its web order line item.
            ("v10-charges", { db in
                try db.execute(sql: "CREATE INDEX storeTransactionWebOrder ON storeTransaction(webOrderLineItemId) WHERE webOrderLineItemId IS NOT NULL")
            }),
            ("v11-apple-ids", StoreDatabase.appleIdMigration),
            ("v12-apple-orders", StoreDatabase.appleOrderMigration),
            ("v13-server-api-requests", StoreDatabase.serverAPIMigration),
            ("v14-consumption", StoreDatabase.consumptionMigration),
            ("v15-renewal-extensions", StoreDatabase.extensionMigration),
            ("v16-families", StoreDatabase.familyMigration),
            ("v17-notification-detours", StoreDatabase.detourMigration),
            ("v18-price-increase", StoreDatabase.priceIncreaseMigration),
            ("v19-promotional-offers", StoreDatabase.promotionalOfferMigration),
            ("v20-offer-codes", StoreDatabase.offerCodeMigration),
            ("v21-intro-eligibility", StoreDatabase.introEligibilityMigration),
            ("v22-one-time-codes", StoreDatabase.oneTimeCodeMigration),
            ("v23-billing-plans", StoreDatabase.billingPlanMigration),
            ("v24-storekit-2-results", StoreDatabase.storeKit2ResultMigration),
            // Apple's records read a chain's charges (where its series began); without this every lookup of the Server
            // API read the whole store.
            ("v25-chains", { db in
                try db.execute(sql: "CREATE INDEX storeTransactionChain ON storeTransaction(COALESCE(originalTransactionId, id), state, date)")
            }),
            ("v26-attempt-log", StoreDatabase.attemptLogMigration),
            ("v27-notification-content", StoreDatabase.contentMigration),
            ("v28-store-renewals", StoreDatabase.storeRenewalMigration),
            // Every launch asks for the latest transaction's date (the store's clock); without this it read them all.
            ("v29-dates", { db in try db.execute(sql: "CREATE INDEX storeTransactionDate ON storeTransaction(date)") }),
        ])
        appleId = try queue.inDatabase { db in try Self.signedIn(db, device: device) }
    }

    /// Closes the connection: SQLite folds the WAL into the file and removes it. Nothing may be read or written after.
    public func close() throws {
        try queue.close()
    }

    /// Inserts a new transaction with the next id, atomically.
    func insert(productId: String, state: TransactionState, applicationUsername: String?, account: String?, pressedBy: String?, date: Date,
                error: StoreError? = nil, originalTransactionId: String? = nil, plan: StorePlan? = nil,
                appAccountToken: UUID? = nil, offerId: String? = nil, introEligible: Bool? = nil, billingPlan: BillingPlan? = nil,
                storeKit: StoreKitMode = .one) throws -> StoreTransaction {
        let planText = try plan?.encoded()
        return try queue.writeTransaction { db in
            let transaction = StoreTransaction(id: try Self.nextId(db), productId: productId, state: state, applicationUsername: applicationUsername,
                                               date: date, error: error, originalTransactionId: originalTransactionId, appAccountToken: appAccountToken)
            try Self.noteClock(db, date)
            try db.cachedStatement(sql: """
                INSERT INTO storeTransaction (id, productId, state, applicationUsername, date, error, account, originalTransactionId, plan, device,
                                              pressedBy, appAccountToken, offerId, introEligible, billingPlan, purchasedWithStoreKit2)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [transaction.id, productId, state.rawValue, applicationUsername, date.timeIntervalSince1970,
                                         error?.rawValue, account, originalTransactionId, planText, device, pressedBy,
                                         appAccountToken?.uuidString.lowercased(), offerId, introEligible, billingPlan?.rawValue,
                                         storeKit == .two])
            return transaction
        }
    }

    /// Moves a transaction that is still waiting (purchasing or deferred) to `state` now, dropping what was planned
    /// for it (the user cancelled on the sheet). Nil when it was no longer waiting.
    func settle(_ id: String, state: TransactionState, error: StoreError?) throws -> StoreTransaction? {
        try queue.writeTransaction { db in
            try db.cachedStatement(sql: """
                UPDATE storeTransaction SET state = ?, error = ?, plan = NULL WHERE id = ? AND state IN ('purchasing', 'deferred')
                """).execute(arguments: [state.rawValue, error?.rawValue, id])
            guard db.changesCount > 0 else { return nil }
            return try Self.transaction(db, id)
        }
    }

    /// A planned step taken: the transaction as it now is (a new one when the step spawns it; none for a refund, which
    /// StoreKit 1 tells the app nothing of: only the app's server hears, and handing the app a purchase it had finished
    /// would have it saved and verified again), what Apple tells the app's server of it, when the plan's next step is
    /// due, and whether the transaction is in this device's queue, all as of the step's own database transaction.
    struct TakenStep {
        let transaction: StoreTransaction?
        let notification: StoreNotification?
        let next: Date?
        let isInThisQueue: Bool
    }

    /// Takes the transaction's next planned step if it is due by `now`, in one database transaction: the step happens
    /// once, whoever asks (a timer of this process, or the next launch). Nil when nothing was due.
    /// A charge for what the account owns by then is a free purchase of the original (S7): a product in `ownedOnce`, or the
    /// subscription it is subscribed to (a regular `purchased` transaction, as Apple's guide says, not a restore); a subscription of a lower level than the account's becomes a change at renewal.
    func takeDueStep(_ id: String, now: Date, ownedOnce: Set<String>, subscriptions terms: [String: SubscriptionTerms])
        throws -> TakenStep? {
        try queue.writeTransaction { db in
            guard let (transaction, record, news, next, inThisQueue) = try takeDueStep(db, id, now: now, ownedOnce: ownedOnce, subscriptions: terms)
            else { return nil }
            if let news { try enqueue(db, news, knowing: record) }
            return TakenStep(transaction: transaction, notification: news, next: next, isInThisQueue: inThisQueue)
        }
    }

    private func takeDueStep(_ db: Database, _ id: String, now: Date, ownedOnce: Set<String>, subscriptions terms: [String: SubscriptionTerms])
        throws -> (StoreTransaction?, AppleTransaction?, StoreNotification?, next: Date?, inThisQueue: Bool)? {
        // Whether it is in this device's queue is read with it: a step changes neither the device nor the Apple ID, and
        // a second half joins the queue of the device that paid, as the Apple ID that paid.
        guard let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT \(Self.columns), offerId, introEligible, billingPlan, \(Self.inThisQueue) AS inThisQueue FROM storeTransaction WHERE id = ?
            """), arguments: inThisQueueArguments + [id]),
              var plan = StorePlan.decode(row.text("plan")), let step = plan.steps.first, step.date <= now
        else { return nil }
        try Self.noteClock(db, now)
        plan.steps.removeFirst()
        let rest = plan.steps.isEmpty ? nil : try plan.encoded()
        try db.cachedStatement(sql: "UPDATE storeTransaction SET plan = ? WHERE id = ?").execute(arguments: [rest, id])
        if step.refunds == true {
            try askBeforeDeciding(db, about: id, because: nil, at: step.date)
            return (nil, nil, try refundWithShares(db, id, reason: 0, at: step.date)?.2, plan.steps.first?.date, false)
        }
        let current = Self.transaction(row)
        let account = row.text("account")
        let subscription = terms[current.productId]
        var owned: String?, subscriptionPlan: SubscriptionPlan?
        if let account {
            if ownedOnce.contains(current.productId) {
                owned = try Self.owningCharge(db, account: account, productId: current.productId, besides: id)
            }
            if let subscription {
                subscriptionPlan = SubscriptionPlan(current: try Self.subscription(db, account: account, group: subscription.group),
                                                    productId: current.productId,
                                        terms: subscription, levels: terms.mapValues(\.level))
            }
        }
        // The promotional offer the payment was signed for, or the win-back offer it asked for (judged when it was added).
        let asked = row.text("offerId").flatMap { subscription?.offer(asked: $0) }
        let winBack = asked.map { subscription?.winBackOffer($0.id) != nil } ?? false
        let offer = winBack ? nil : asked
        let decision = PaymentDecision(step: step, original: current.originalTransactionId, isSubscription: subscription != nil, owned: owned,
                                       plan: subscriptionPlan)
        let (state, error, original) = (decision.state, decision.error, decision.original)
        var notification: StoreNotification?
        if decision.subscription == .changeAtRenewal, let subscription, let account {
            notification = try Self.changeAtRenewal(db, account: account, productId: current.productId, group: subscription.group, offer: offer,
                                                    at: step.date)
        }
        let target: String
        if step.spawns {
            target = try Self.nextId(db)
            // The second half of an interrupted purchase joins the queue of the device that paid.
            try db.cachedStatement(sql: """
                INSERT INTO storeTransaction (id, productId, state, applicationUsername, date, error, account, originalTransactionId, device, pressedBy,
                                              appAccountToken)
                SELECT ?, ?, ?, ?, ?, ?, ?, ?, device, pressedBy, appAccountToken FROM storeTransaction WHERE id = ?
                """).execute(arguments: [target, current.productId, state.rawValue, current.applicationUsername,
                                         step.at, error?.rawValue, account, original, id])
        } else {
            target = id
            // A purchase is dated when the App Store charged it (Apple's purchase_date, "the time the App Store charged
            // the user's account"): as the sheet closed, or at a parent's approval, not when the sheet opened or the
            // child asked. What the account owned meanwhile is judged at that moment too.
            let charged = state == .purchased ? step.at : current.date.timeIntervalSince1970
            try db.cachedStatement(sql: "UPDATE storeTransaction SET state = ?, error = ?, originalTransactionId = ?, date = ? WHERE id = ?").execute(
                arguments: [state.rawValue, error?.rawValue, original, charged, id])
        }
        if decision.subscription == .charge, let subscription, let account {
            let (chain, news) = try Self.subscriptionCharged(db, id: target, account: account, productId: current.productId,
                                                             terms: subscription, offer: asked, kind: winBack ? .winBack : .promotional,
                                                             introEligible: row["introEligible"],
                                                             plan: row.text("billingPlan").flatMap(BillingPlan.init(rawValue:)), at: step.date)
            notification = news
            if chain != target {
                try db.cachedStatement(sql: "UPDATE storeTransaction SET originalTransactionId = ? WHERE id = ?").execute(arguments: [chain, target])
            }
        } else if case let .boughtAgain(original) = decision.subscription {
            notification = try Self.subscriptionBoughtAgain(db, id: target, original: original, offer: offer, at: step.date)
        }
        if decision.isOneTimeCharge {
            // A charge for anything but an auto-renewable subscription (Apple's ONE_TIME_CHARGE).
            notification = StoreNotification(.oneTimeCharge, account: account, productId: current.productId, transactionId: target,
                                             originalTransactionId: original ?? target, date: step.date)
        }
        if decision.charges { try Self.chargedOrder(db, target) }
        if state == .purchased {
            if let original, familyShareable.contains(current.productId) {
                // A free re-buy of what the family shares is the family's too.
                try db.cachedStatement(sql: "UPDATE storeTransaction SET sharedFrom = (SELECT sharedFrom FROM storeTransaction WHERE id = ?) WHERE id = ?")
                    .execute(arguments: [original, target])
            } else if familyShareable.contains(current.productId) {
                try share(db, at: step.date)
            }
        }
        guard let (taken, record) = try AppleRecords.kept(db, target, catalog: outbox.catalog) else { return nil }
        return (taken, record, notification, plan.steps.first?.date, row["inThisQueue"])
    }

    /// Every transaction with something planned, on any device, and when its next step is due: Apple's servers take
    /// them whichever device's app is open; a device's app hears of its own when it looks.
    func planned() throws -> [(id: String, due: Date)] {
        try queue.inDatabase { db in
            try Array(Row.fetchCursor(db.cachedStatement(sql: "SELECT id, plan FROM storeTransaction INDEXED BY storeTransactionPlanned WHERE plan IS NOT NULL"))
                .compactMap { row -> (String, Date)? in
                    StorePlan.decode(row.text("plan"))?.steps.first.map { (row["id"], $0.date) }
                })
        }
    }

    /// When the transaction's next planned step is due, if it has one.
    func nextStep(of id: String) throws -> Date? {
        try queue.inDatabase { db in
            StorePlan.decode(try String.fetchOne(db.cachedStatement(sql: "SELECT plan FROM storeTransaction WHERE id = ?"), arguments: [id]))?
                .steps.first?.date
        }
    }

    /// Marks the transaction finished; false when no unfinished transaction has that id.
    func finish(_ id: String) throws -> Bool {
        try queue.writeTransaction { db in
            try db.cachedStatement(sql: "UPDATE storeTransaction SET finished = 1 WHERE id = ? AND finished = 0").execute(arguments: [id])
            return db.changesCount > 0
        }
    }

    func transaction(_ id: String) throws -> StoreTransaction? {
        try queue.inDatabase { db in try Self.transaction(db, id) }
    }

    /// Whether the app has nothing left to finish of it (a StoreKit 2 purchase that failed never had anything).
    func isFinished(_ id: String) throws -> Bool {
        try queue.inDatabase { db in
            try Bool.fetchOne(db.cachedStatement(sql: "SELECT finished FROM storeTransaction WHERE id = ?"), arguments: [id]) ?? false
        }
    }

    /// Through the queue's own index, named: left to itself SQLite takes the other partial index on unfinished rows and
    /// sorts every unfinished transaction for each page (a launch with a large queue read it once per batch).
    public func unfinished(limit: Int = -1) throws -> [StoreTransaction] {
        try queue.inDatabase { db in
            try Self.transactions(db.cachedStatement(sql: "SELECT \(Self.columns) FROM storeTransaction INDEXED BY storeTransactionQueue WHERE finished = 0 ORDER BY date, id LIMIT ?"),
                                  arguments: [limit])
        }
    }

    /// This device's next `limit` unfinished transactions of the signed-in Apple ID after `cursor`, oldest first. The cursor's own row gives the
    /// date to start from: a date read back into a `Date` may differ from the stored one in its last bit. The device is
    /// checked on the rows the queue's index gives, in order, so a page still reads only about its own rows.
    func unfinished(after cursor: StoreTransaction?, limit: Int) throws -> [StoreTransaction] {
        try queue.inDatabase { db in try unfinished(db, after: cursor, limit: limit) }
    }

    private func unfinished(_ db: Database, after cursor: StoreTransaction?, limit: Int) throws -> [StoreTransaction] {
        guard let cursor else {
            return try Self.transactions(db.cachedStatement(sql: """
                SELECT \(Self.columns) FROM storeTransaction INDEXED BY storeTransactionQueue
                WHERE finished = 0 AND \(Self.inThisQueue) ORDER BY date, id LIMIT ?
                """), arguments: inThisQueueArguments + [limit])
        }
        return try Self.transactions(db.cachedStatement(sql: """
            SELECT \(Self.columns) FROM storeTransaction INDEXED BY storeTransactionQueue
            WHERE finished = 0 AND \(Self.inThisQueue)
            AND (date, id) > (SELECT date, id FROM storeTransaction WHERE id = ?) ORDER BY date, id LIMIT ?
            """), arguments: inThisQueueArguments + [cursor.id, limit])
    }

    /// This device's first `limit` unfinished transactions of the signed-in Apple ID, and how many it holds, as one snapshot.
    func queued(limit: Int) throws -> (transactions: [StoreTransaction], total: Int) {
        try queue.readTransaction { db in
            let total = try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM storeTransaction WHERE finished = 0 AND \(Self.inThisQueue)"),
                                         arguments: inThisQueueArguments) ?? 0
            return (try unfinished(db, after: nil, limit: limit), total)
        }
    }

    public func unfinishedCount() throws -> Int {
        try queue.inDatabase { db in try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM storeTransaction WHERE finished = 0")) ?? 0 }
    }

    /// What the receipt lists, of the signed-in Apple ID: unfinished consumables and every paid non-consumable, chosen by SQLite
    /// (finished consumables are most of a long history and never listed).
    /// With each, its subscription and refund fields and its original purchase's date.
    func receiptEntries(nonConsumables: [String]) throws -> [ReceiptRow] {
        let placeholders = Array(repeating: "?", count: nonConsumables.count).joined(separator: ", ")
        let columns = "\(Self.columns), \(TransactionDetails.columns)"
        return try queue.inDatabase { db in
            try Array(Row.fetchCursor(db.cachedStatement(sql: """
                SELECT *, (SELECT date FROM storeTransaction o WHERE o.id = listed.originalTransactionId) AS originalDate FROM (
                    SELECT \(columns) FROM storeTransaction WHERE finished = 0 AND state IN ('purchased', 'restored') AND \(Self.signedInOnly)
                    UNION
                    SELECT \(columns) FROM storeTransaction WHERE productId IN (\(placeholders)) AND state IN ('purchased', 'restored')
                    AND \(Self.signedInOnly)
                ) AS listed ORDER BY date, id
                """), arguments: StatementArguments([appleId, appleId] as [(any DatabaseValueConvertible)?] + nonConsumables + [appleId, appleId])).map(ReceiptRow.init))
        }
    }

    /// Every purchase and restore of the subscription chains `originals`, oldest first, as the store holds them now:
    /// what Apple's `verifyReceipt` lists as a receipt's latest transactions, however old the receipt.
    func chainEntries(originals: Set<String>) throws -> [ReceiptRow] {
        guard !originals.isEmpty else { return [] }
        let marks = Array(repeating: "?", count: originals.count).joined(separator: ", ")
        return try queue.inDatabase { db in
            try Array(Row.fetchCursor(db.cachedStatement(sql: """
                SELECT \(Self.columns), \(TransactionDetails.columns),
                    (SELECT date FROM storeTransaction o WHERE o.id = COALESCE(t.originalTransactionId, t.id)) AS originalDate
                FROM storeTransaction t WHERE COALESCE(originalTransactionId, id) IN (\(marks)) AND state IN ('purchased', 'restored')
                ORDER BY date, id
                """), arguments: StatementArguments(originals.sorted())).map(ReceiptRow.init))
        }
    }

    /// Whether the product has a transaction this device's queue still holds open (StoreKit then refuses a new payment).
    func hasOpenTransaction(productId: String) throws -> Bool {
        try queue.inDatabase { db in
            try Bool.fetchOne(db.cachedStatement(sql: """
                SELECT EXISTS (SELECT 1 FROM storeTransaction WHERE finished = 0 AND productId = ? AND state <> 'failed' AND device = ?
                               AND \(Self.signedInOnly))
                """), arguments: [productId, device, appleId, appleId]) ?? false
        }
    }

    /// The charge by which `account` owns `productId`, if it does (S7): its first purchase, not a free re-buy, not refunded.
    func originalPurchase(account: String, productId: String) throws -> String? {
        try queue.inDatabase { db in try Self.owningCharge(db, account: account, productId: productId) }
    }

    /// The same, leaving out the transaction `besides` (the one being decided, which is not a charge yet).
    static func owningCharge(_ db: Database, account: String, productId: String, besides id: String = "") throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: """
            SELECT id FROM storeTransaction WHERE account = ? AND productId = ? AND state = 'purchased'
            AND originalTransactionId IS NULL AND cancellationDate IS NULL AND id <> ? ORDER BY date, id LIMIT 1
            """), arguments: [account, productId, id])
    }

    /// The original transaction of each of the latest `limit` finished purchases and restores, newest first. A family
    /// member's own transaction is finished by Apple and reaches no app until it is restored: its restore is what counts.
    func latestFinishedPaid(limit: Int) throws -> [String] {
        try queue.inDatabase { db in
            try String.fetchAll(db.cachedStatement(sql: """
                SELECT COALESCE(originalTransactionId, id) FROM storeTransaction WHERE finished = 1 AND state IN ('purchased', 'restored')
                AND (sharedFrom IS NULL OR originalTransactionId IS NOT NULL) ORDER BY rowid DESC LIMIT ?
                """), arguments: [limit])
        }
    }

    /// Every transaction with whether it was finished and who paid, for `iapsim state` and the tests.
    public func all() throws -> [StoreRecord] {
        try queue.inDatabase { db in
            try Array(Row.fetchCursor(db.cachedStatement(sql: "SELECT \(Self.columns) FROM storeTransaction ORDER BY date, id"))
                .map(StoreRecord.init))
        }
    }

    func value(_ key: String) throws -> Data? {
        try queue.inDatabase { db in try Data.fetchOne(db.cachedStatement(sql: "SELECT value FROM meta WHERE key = ?"), arguments: [key]) }
    }

    func setValue(_ value: Data, for key: String) throws {
        try queue.writeTransaction { db in
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)").execute(arguments: [key, value])
        }
    }

    /// The store's clock as it last acted (a payment, a step of one, a renewal, a refund, a change of auto-renew),
    /// inside the caller's database transaction: `iapsim state` judges entitlement at this instant, which the app's
    /// clock reaches only while it runs (`t`, `--speed` and scripts move it away from the wall).
    static func noteClock(_ db: Database, _ date: Date) throws {
        try db.cachedStatement(sql: """
            INSERT INTO meta (key, value) VALUES ('clock', ?) ON CONFLICT (key) DO UPDATE SET value = MAX(CAST(value AS REAL), excluded.value)
            """).execute(arguments: [date.timeIntervalSince1970])
    }

    /// Takes the next transaction id, inside the caller's database transaction.
    static func nextId(_ db: Database) throws -> String {
        let next = try Int.fetchOne(db.cachedStatement(sql: "SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'nextTransaction'")) ?? 1_000_000_001
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('nextTransaction', ?)").execute(arguments: [next + 1])
        return String(next)
    }

    /// What `transaction(_:)` reads, with whether it was finished, its plan, the Apple ID that paid and who pressed Buy.
    static let columns = "id, productId, state, applicationUsername, date, error, finished, originalTransactionId, plan, account, pressedBy, appAccountToken, storeRenewal"

    static func transaction(_ db: Database, _ id: String) throws -> StoreTransaction? {
        try transactions(db.cachedStatement(sql: "SELECT \(columns) FROM storeTransaction WHERE id = ?"), arguments: [id]).first
    }

    /// A row that selected `columns`, among others in any order.
    static func transaction(_ row: Row) -> StoreTransaction {
        transaction(row, at: ColumnPositions(Array(row.columnNames)))
    }

    /// The rows of a statement that selected `columns`, each read at the positions found once for the statement: read
    /// by name, every column of every row was looked up again, and a long queue's first batch is read before its prompt.
    static func transactions(_ statement: Statement, arguments: StatementArguments) throws -> [StoreTransaction] {
        let positions = ColumnPositions(statement.columnNames)
        return try Array(Row.fetchCursor(statement, arguments: arguments).map { transaction($0, at: positions) })
    }

    private static func transaction(_ row: Row, at column: ColumnPositions) -> StoreTransaction {
        StoreTransaction(
            id: row[column.id], productId: row[column.productId],
            state: TransactionState(rawValue: row[column.state]) ?? .failed,
            applicationUsername: column.applicationUsername.flatMap(row.text),
            date: Date(timeIntervalSince1970: row[column.date]),
            error: column.error.flatMap(row.text).flatMap(StoreError.init(rawValue:)),
            originalTransactionId: column.originalTransactionId.flatMap(row.text),
            appAccountToken: column.appAccountToken.flatMap(row.text).flatMap(UUID.init(uuidString:)),
            isRenewal: column.storeRenewal.map { row[$0] as Bool? ?? false } ?? false
        )
    }

    /// Where a statement's rows hold what `transaction` reads; nil for a column a file from before it lacks.
    private struct ColumnPositions {
        let id, productId, state, date: Int
        let applicationUsername, error, originalTransactionId, appAccountToken, storeRenewal: Int?

        init(_ names: [String]) {
            func position(_ name: String) -> Int? { names.firstIndex(of: name) }
            guard let id = position("id"), let productId = position("productId"), let state = position("state"), let date = position("date") else {
                preconditionFailure("a store transaction's row without its id, productId, state or date: \(names)")
            }
            (self.id, self.productId, self.state, self.date) = (id, productId, state, date)
            applicationUsername = position("applicationUsername")
            error = position("error")
            originalTransactionId = position("originalTransactionId")
            appAccountToken = position("appAccountToken")
            storeRenewal = position("storeRenewal")
        }
    }
}
