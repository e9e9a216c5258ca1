import AppleVocabulary
import Crypto
import Foundation
import GRDB
import IAPCore

/// Apple's server-side view of the store, as the App Store Server API reports it: a transaction by its id, a customer's
/// history, their subscriptions and refunds. A "customer" is the store account that paid for the transaction named.
public struct AppleRecords {
    let database: StoreDatabase
    let catalog: [String: Product]

    public init(database: StoreDatabase, catalog: [Product]) {
        self.database = database
        self.catalog = Dictionary(catalog.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The product `id` bought; nil for a transaction Apple never made.
    public func productId(of id: String) -> String? {
        try? database.queue.inDatabase { db in try StoreDatabase.transaction(db, id)?.productId }
    }

    /// The purchase or restore with this id, if the store ever made it.
    public func transaction(_ id: String) throws -> AppleTransaction? {
        try database.queue.inDatabase { db in try Self.transaction(db, id, catalog: catalog) }
    }

    static func transaction(_ db: Database, _ id: String, catalog: [String: Product]) throws -> AppleTransaction? {
        try kept(db, id, catalog: catalog)?.1
    }

    /// The transaction as the store keeps it and, when it is paid or restored, as Apple's records tell it, in one read:
    /// a step that charges it tells the server in the same write transaction.
    static func kept(_ db: Database, _ id: String, catalog: [String: Product]) throws -> (StoreTransaction, AppleTransaction?)? {
        // Decoded from the cursor, as every wide row here is: a row `Row.fetchOne` copies out lowercases each of its
        // forty column names at every lookup by name.
        try Row.fetchCursor(db.cachedStatement(sql: "\(select) WHERE t.id = ?"), arguments: [id]).map { row in
            let transaction = StoreDatabase.transaction(row)
            return (transaction, [.purchased, .restored].contains(transaction.state) ? record(row, transaction, catalog: catalog) : nil)
        }.next()
    }

    /// Every charge of the account that paid for `id`, oldest first; nil when `id` is unknown. Restores are not
    /// charges: Apple's history lists each purchase once, however often it was restored.
    public func history(of id: String, finishedConsumables: Bool = true) throws -> [AppleTransaction]? {
        guard let account = try account(of: id) else { return nil }
        return try database.queue.inDatabase { db in
            let rows = try Row.fetchCursor(db.cachedStatement(sql: "\(Self.select) WHERE t.account = ? AND t.state = 'purchased' ORDER BY t.date, t.id"),
                                           arguments: [account])
            return try Array(rows.compactMap { row -> AppleTransaction? in
                let charge = record(row)
                let leftOut = !finishedConsumables && row["finished"] == true && (charge.product?.kind ?? .consumable) == .consumable
                    && charge.entry.cancellation_date_ms == nil
                return leftOut ? nil : charge
            })
        }
    }

    /// The latest charge of each of the account's subscription chains, with its state and what its renewal will do.
    public func subscriptions(of id: String) throws -> [AppleSubscription]? {
        guard let account = try account(of: id) else { return nil }
        return try database.queue.inDatabase { db in
            let now = try StoreDatabase.knownTime(db) ?? .distantPast
            return try StoreDatabase.accountChains(db, account: account).compactMap { chain in
                try Self.transaction(db, chain.latestTransactionId, catalog: catalog).map { try Self.subscription(db, chain, latest: $0, at: now, catalog: catalog) }
            }
        }
    }

    /// One chain by its original transaction, with its latest charge: what a notification about it carries.
    public func subscription(original: String) throws -> AppleSubscription? {
        try database.queue.inDatabase { db in
            try Self.subscription(db, original: original, at: try StoreDatabase.knownTime(db) ?? .distantPast, catalog: catalog)
        }
    }

    static func subscription(_ db: Database, original: String, at now: Date, catalog: [String: Product]) throws -> AppleSubscription? {
        guard let chain = try StoreDatabase.subscription(db, original: original),
              let latest = try transaction(db, chain.latestTransactionId, catalog: catalog) else { return nil }
        return try subscription(db, chain, latest: latest, at: now, catalog: catalog)
    }

    /// A chain as Apple's server reports it, with the win-back offers its customer may take at `now`.
    private static func subscription(_ db: Database, _ chain: SubscriptionRecord, latest: AppleTransaction, at now: Date,
                                     catalog: [String: Product]) throws -> AppleSubscription {
        let winBack = try StoreDatabase.eligibleWinBackOfferIds(db, chain: chain, terms: catalog[chain.productId]?.subscription, at: now)
        let product = catalog[chain.renewsAs] ?? catalog[chain.productId]
        let offer = product.flatMap { renewalOffer(chain, terms: $0.subscription) }
        var subscription = AppleSubscription(
            latest: latest, state: chain.status(offer: nil).state, renewal: PendingRenewalInfo(chain), expires: chain.expiresAt,
            eligibleWinBackOfferIds: winBack, commitmentEndsAt: chain.isOver ? nil : chain.commitmentEndsAt,
            renewalPrice: product.flatMap { AppleTransaction.price(of: $0, at: offer?.terms, monthly: chain.commitmentPeriod != nil) })
        subscription.renewalOffer = offer
        subscription.recentStart = try recentStart(db, original: chain.originalTransactionId)
        return subscription
    }

    /// The offer whose periods are still to come at the next renewal (an intro offer's or a promotional offer's pay as
    /// you go), with Apple's number for its type.
    private static func renewalOffer(_ chain: SubscriptionRecord, terms: SubscriptionTerms?) -> (type: Int, id: String?, terms: IntroOffer)? {
        guard chain.introLeft > 0, let terms else { return nil }
        guard let id = chain.offerId else { return terms.introOffer.map { (1, nil, $0) } }
        if let offer = terms.promotionalOffer(id) { return (2, id, offer.terms) }
        if let offer = terms.codeOffers.first(where: { $0.id == id }) { return (3, id, offer.terms) }
        return terms.winBackOffer(id).map { (4, id, $0.terms) }
    }

    /// Apple's `recentSubscriptionStartDate`: going back from the latest charge, the first of those each followed the
    /// one before within 60 days of its end (a refunded or upgraded charge ends where it was cut).
    private static func recentStart(_ db: Database, original: String) throws -> Date? {
        let charges = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT date, MIN(COALESCE(expiresDate, date), COALESCE(cancellationDate, expiresDate, date)) AS ended FROM storeTransaction
            WHERE COALESCE(originalTransactionId, id) = ? AND state = 'purchased' ORDER BY date DESC
            """), arguments: [original]).map { (start: $0["date"] as Double, ended: $0["ended"] as Double) }
        guard var start = charges.first?.start else { return nil }
        for earlier in charges.dropFirst() {
            guard start - earlier.ended < lapseIgnored else { break }
            start = earlier.start
        }
        return Date(timeIntervalSince1970: start)
    }

    private static let lapseIgnored: TimeInterval = 60 * 86_400

    /// What `notification` carries by the records as they stand at `date` (one written before the store kept what its
    /// notifications carry).
    public func content(of notification: StoreNotification, at date: Date) throws -> NotificationContent? {
        try database.queue.inDatabase { db in try NotificationContent.taken(db, notification, at: date, catalog: catalog) }
    }

    /// The charges of the customer order `orderId` (Apple's, on the e-mail receipt), oldest first; none for an order id
    /// Apple never gave.
    public func order(_ orderId: String) throws -> [AppleTransaction] {
        try database.queue.inDatabase { db in
            try Array(Row.fetchCursor(db.cachedStatement(sql: "\(Self.select) WHERE t.appleOrderId = ? ORDER BY t.date, t.id"), arguments: [orderId])
                .map(record))
        }
    }

    /// The customer `id` names, as Apple takes it: any of their transaction ids, or their download's appTransactionId;
    /// nil when it names none (or the store did not record who paid).
    public func account(of id: String) throws -> String? {
        if let transaction = try transaction(id) { return transaction.account }
        // Only an id of a download's shape (`appTransactionId(account:)`: a 7 and fifteen digits) is looked for among
        // the accounts, so an unknown transaction id reads no more than before.
        guard id.count == 16, id.hasPrefix("7") else { return nil }
        return try database.queue.inDatabase { db in
            try String.fetchAll(db.cachedStatement(sql: "SELECT DISTINCT account FROM storeTransaction WHERE account IS NOT NULL"))
        }.first { Self.appTransactionId(account: $0) == id }
    }

    /// The app's download by the account that made `transaction`; nil when the store did not record who paid.
    public func appTransaction(of transaction: AppleTransaction) throws -> AppleAppTransaction? {
        try transaction.account.map(appTransaction(account:))
    }

    /// The app's download by `account`. The store keeps no downloads: the account had the app by its first transaction,
    /// and its download's id is made from the account's name, the same on every run and longer than any transaction's id.
    public func appTransaction(account: String) throws -> AppleAppTransaction {
        let first = try database.queue.inDatabase { db in
            try Double.fetchOne(db.cachedStatement(sql: "SELECT MIN(date) FROM storeTransaction WHERE account = ?"), arguments: [account])
        }
        return AppleAppTransaction(appTransactionId: Self.appTransactionId(account: account), originalPurchaseDate: Date(timeIntervalSince1970: first ?? 0))
    }

    /// The id of the account's download, made from the account's name.
    static func appTransactionId(account: String) -> String {
        // Six bytes are at most fifteen digits; padded with zeros, not through String(format:), which every record
        // of an account's transaction pays for.
        let digits = String(SHA256.hash(data: Data(account.utf8)).prefix(6).reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        return "7" + String(repeating: "0", count: 15 - digits.count) + digits
    }

    /// The account's refunded charges, oldest first.
    public func refunds(of id: String) throws -> [AppleTransaction]? {
        try history(of: id)?.filter(\.entry.isRefunded)
    }

    static let select = """
        SELECT \(StoreDatabase.columns.split(separator: ",").map { "t." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")),
        \(TransactionDetails.columns.split(separator: ",").map { "t." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")),
        t.storeRenewal, o.date AS originalDate, o.appAccountToken AS chainToken
        FROM storeTransaction t LEFT JOIN storeTransaction o ON o.id = COALESCE(t.originalTransactionId, t.id)
        """

    private func record(_ row: Row) -> AppleTransaction {
        Self.record(row, catalog: catalog)
    }

    private static func record(_ row: Row, catalog: [String: Product]) -> AppleTransaction {
        record(row, StoreDatabase.transaction(row), catalog: catalog)
    }

    private static func record(_ row: Row, _ transaction: StoreTransaction, catalog: [String: Product]) -> AppleTransaction {
        let details = TransactionDetails(row: row)
        let receiptRow = ReceiptRow(transaction: transaction, details: details,
                                    originalDate: row.real("originalDate").map(Date.init(timeIntervalSince1970:)) ?? transaction.date)
        let product = catalog[transaction.productId]
        var apple = AppleTransaction(entry: Receipt.Entry(receiptRow, group: product?.subscription?.group), account: row.text("account"), product: product,
                                     isRestore: transaction.state == .restored, applicationUsername: transaction.applicationUsername,
                                     isRenewal: row["storeRenewal"] as Bool? ?? false,
                                     appAccountToken: (row.text("appAccountToken") ?? row.text("chainToken")).flatMap(UUID.init(uuidString:)),
                                     winBackOfferId: details.offer == .winBack ? details.offerId : nil,
                                     commitment: details.billingPeriod.flatMap { month in
                                         details.commitmentEndsAt.map { AppleTransaction.Commitment(billingPeriod: month, endsAt: $0) }
                                     })
        apple.appTransactionId = row.text("account").map(appTransactionId)
        return apple
    }
}

extension PendingRenewalInfo {
    init(_ chain: SubscriptionRecord) {
        let retrying = !chain.isOver && chain.retryUntil != nil
        self.init(auto_renew_product_id: chain.renewsAs, auto_renew_status: chain.willAutoRenew ? "1" : "0",
                  original_transaction_id: chain.originalTransactionId, product_id: chain.productId,
                  expiration_intent: PendingRenewalInfo.expirationIntent(retrying: retrying, ended: chain.expirationIntent),
                  is_in_billing_retry_period: PendingRenewalInfo.billingRetryFlag(retrying: retrying, expirationIntent: chain.expirationIntent),
                  grace_period_expires_date_ms: chain.graceUntil.map(Receipt.Entry.milliseconds),
                  price_consent_status: chain.isOver ? nil : chain.priceIncrease.map { $0 == .accepted ? "1" : "0" })
    }
}

extension Receipt.Entry {
    /// A stored transaction in Apple's terms; `group` when its product is a subscription.
    init(_ row: ReceiptRow, group: String?) {
        let transaction = row.transaction, details = row.details
        self.init(transaction_id: transaction.id, original_transaction_id: transaction.originalId,
                  product_id: transaction.productId, purchase_date_ms: Receipt.Entry.milliseconds(transaction.date))
        original_purchase_date_ms = Receipt.Entry.milliseconds(row.originalDate)
        if let group {
            subscription_group_identifier = group
            expires_date_ms = details.expiresDate.map(Receipt.Entry.milliseconds)
            is_trial_period = String(details.offer == .trial)
            is_in_intro_offer_period = String(details.offer == .intro)
            promotional_offer_id = details.offer == .promotional ? details.offerId : nil
            offer_code_ref_name = details.offer == .code ? details.offerId : nil
            web_order_line_item_id = details.webOrderLineItemId
        }
        cancellation_date_ms = details.cancellationDate.map(Receipt.Entry.milliseconds)
        cancellation_reason = details.cancellationReason.map(String.init)
        in_app_ownership_type = details.familyShared ? "FAMILY_SHARED" : "PURCHASED"
    }
}

extension AppleRecords: AppStoreServerAPI {
    public func notificationHistory(from start: Date, to end: Date) throws -> [StoreNotification] {
        var found: [StoreNotification] = [], after: Int64 = 0, more = true
        while more {
            let page = try database.notificationHistory(from: start, to: end, kind: nil, subtype: nil, onlyFailures: false, after: after,
                                                        limit: 256, keep: { _ in true })
            found += page.entries.filter { $0.entry.attempts > 0 }.map(\.entry.notification)
            after = page.entries.last?.seq ?? after
            more = page.hasMore
        }
        return found
    }
}
