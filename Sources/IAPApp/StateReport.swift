import AppleVocabulary
import ClientPersistence
import DataFiles
import Foundation
import GRDB
import IAPCore
import MockBackend
import MockStore

/// `iapsim state`: what each party holds, as JSON (`StateDocument` is the shape). It only reads: each file is checked
/// as the app checks it, then read through a read-only connection that never checkpoints, deletes or creates a WAL
/// file. Columns are read by name: a file of an earlier version (not yet migrated by the app) lacks the later ones.
public enum StateReport {
    /// `catalog` says which products are consumables and subscriptions, which no credit is kept for.
    /// `warn` hears of what the report cannot say for sure (products the catalog does not sell).
    public static func json(for directory: DataDirectory, catalog: [Product], warn: (String) -> Void = { _ in }) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(try document(for: directory, catalog: catalog, warn: warn)), as: UTF8.self)
    }

    static func document(for directory: DataDirectory, catalog: [Product], warn: (String) -> Void = { _ in }) throws -> StateDocument {
        try directory.checkExisting()
        let files = FileManager.default
        guard [directory.store, directory.backend, directory.keychain].contains(where: files.fileExists(atPath:)) else {
            throw DataDirectoryError(description: "\(directory.path) holds no iapsim data (no store.sqlite, backend.sqlite or client-keychain.sqlite); check --data-dir")
        }
        // With no iapsim at the folder, its files are read without touching even SQLite's side files.
        let unused = directory.isUnused
        let store = files.fileExists(atPath: directory.store) ? try read(directory.store, as: .store, unused: unused, storeHoldings) : StoreHoldings()
        // Who holds each purchase of what is kept is read with the rest of the backend (never a consumable's: a backlog of
        // them needs no look).
        let kept = Set(catalog.filter { $0.kind.isKept || $0.subscription != nil }.map(\.id))
        let purchases = Set(store.transactions.filter { kept.contains($0.productId) && ["purchased", "restored"].contains($0.state) }
            .map { $0.originalTransactionId ?? $0.transactionId })
        let backend = files.fileExists(atPath: directory.backend)
            ? try read(directory.backend, as: .backend, unused: unused) { try backendHoldings($0, holdersOf: purchases) } : BackendHoldings()
        let client = files.fileExists(atPath: directory.keychain) ? try read(directory.keychain, as: .keychain, unused: unused, clientUsers) : [:]
        var devices: [String: StateDocument.DeviceEntry] = [:]
        for name in directory.deviceNames.dropFirst() {
            let keychain = directory.on(device: name).keychain
            if files.fileExists(atPath: keychain) { devices[name] = .init(users: try read(keychain, as: .keychain, unused: unused, clientUsers)) }
        }

        let asOf = store.clock ?? Date()
        // Only what the catalog sells once is owned for ever; a product it does not sell cannot be called owned.
        let ownedOnce = Set(catalog.filter(\.kind.isKept).map(\.id))
        let sold = Set(catalog.map(\.id))
        let held = Set(store.transactions.map(\.productId)).union(backend.credited.map(\.productId))
        let unknown = held.subtracting(sold).sorted()
        if !unknown.isEmpty {
            warn("the catalog does not sell \(unknown.joined(separator: ", ")), which the data holds; "
                 + "\(unknown.count == 1 ? "it is" : "they are") not counted as owned (give the catalog the data was made with: --catalog FILE)")
        }
        // A product the catalog sells once but the data credited coins for was a consumable when it was bought.
        let consumedAsCoins = Set(backend.credited.filter { ownedOnce.contains($0.productId) && $0.coins > 0 }.map(\.productId)).sorted()
        if !consumedAsCoins.isEmpty {
            warn("the catalog sells \(consumedAsCoins.joined(separator: ", ")) as a non-consumable, but the data credited coins for "
                 + "\(consumedAsCoins.count == 1 ? "it" : "them"), as for a consumable; not counted as owned (give the catalog the data was made with: --catalog FILE)")
        }
        let notKept = Set(backend.credited.map(\.productId)).subtracting(ownedOnce).union(consumedAsCoins)
        let backendUsers = Set(backend.credited.map(\.user)).union(backend.revoked.map(\.credit.user)).union(backend.entitlements.map(\.user))
            .union(backend.held.keys)
        // An Apple ID is not an app user: a signed-in one's chains are listed under `appleIds`, not as an account.
        let people = backendUsers.union(Set(store.subscriptions.map(\.account)).union(store.transactions.compactMap(\.account))
            .subtracting(store.appleIds))
        var users: [String: UserHoldings] = [:]
        for user in people {
            let owned = BackendDatabase.owned(credited: backend.held[user] ?? [],
                                              entitlements: (backend.entitled[user] ?? []).filter { sold.contains($0.productId) },
                                              notKept: notKept, at: asOf)
            users[user] = UserHoldings(
                owned: owned.sorted(),
                subscriptions: store.subscriptions.filter { $0.account == user }.map(subscriptionEntry),
                revokedCredits: backend.revoked.filter { $0.credit.user == user }.map { revoked in
                    RevokedCreditEntry(transactionId: revoked.credit.transactionId, productId: revoked.credit.productId,
                                       orderId: revoked.credit.orderId, coins: revoked.credit.coins,
                                       revokedAt_ms: milliseconds(revoked.revokedAt.timeIntervalSince1970))
                })
        }
        let support = StateDocument.BackendPart(credits: backend.credited.map(creditEntry),
                                  appleQueue: backend.appleQueue.map {
                                      .init(transactionId: $0.transactionId, user: $0.user, productId: $0.productId, orderId: $0.orderId,
                                            attempts: $0.attempts, lastStatus: $0.lastStatus, nextAt: UTCTimestamp.text($0.nextAt))
                                  },
                                  clientAlarms: backend.clientAlarms.map {
                                      .init(device: $0.device, user: $0.user, kind: $0.kind, transactionId: $0.transactionId, text: $0.text,
                                            raisedAt: $0.raisedAt, receivedAt: UTCTimestamp.text($0.receivedAt))
                                  },
                                  receiptReplays: backend.replays.map {
                                      .init(receiptHash: $0.receiptHash, transactionId: $0.transactionId, user: $0.user, firstUser: $0.firstUser, at: UTCTimestamp.text($0.at))
                                  },
                                  restorePolicy: backend.restorePolicy.rawValue,
                                  transfers: backend.transfers.map {
                                      .init(originalTransactionId: $0.originalTransactionId, productId: $0.productId, from: $0.from, to: $0.to,
                                            policy: $0.policy, at: UTCTimestamp.text($0.at))
                                  })
        var transactions = store.transactions
        for index in transactions.indices {
            transactions[index].heldBy = backend.heldBy[transactions[index].originalTransactionId ?? transactions[index].transactionId]
        }
        let appleIds = Dictionary(grouping: store.signedIn, by: \.value).mapValues { signedIn in
            StateDocument.AppleIdEntry(signedInOn: signedIn.map(\.key).sorted(),
                                       subscriptions: store.subscriptions.filter { $0.account == signedIn[0].value }.map(subscriptionEntry))
        }
        let codes = store.oneTimeCodes.map {
            StateDocument.OneTimeCodeEntry(code: $0.code, offerId: $0.offerId, productId: $0.productId, redeemedBy: $0.redeemedBy,
                                           redeemedAt: $0.redeemedAt.map { UTCTimestamp.text($0) })
        }
        return StateDocument(store: .init(transactions: transactions, appleIds: appleIds, families: store.families, oneTimeCodes: codes), backend: support,
                             client: .init(users: client, devices: devices), accounts: users, asOf: UTCTimestamp.text(asOf, milliseconds: true))
    }

    // MARK: The store

    private struct StoreHoldings {
        var transactions: [StoreTransactionEntry] = []
        var subscriptions: [SubscriptionSnapshot] = []
        /// The Apple ID signed in on each device that ever had one.
        var signedIn: [String: String] = [:]
        /// Every store account that is an Apple ID, not an app user's own: signed in now, in a family, or one that paid
        /// for an app user of another name.
        var appleIds: Set<String> = []
        var families: [[String]] = []
        var oneTimeCodes: [OneTimeCode] = []
        /// The store's clock as it last acted or was last noted (a skip, a quit), and never before its latest transaction
        /// or refund.
        var clock: Date?
    }

    private static func storeHoldings(_ db: Database) throws -> StoreHoldings {
        var holdings = StoreHoldings()
        holdings.subscriptions = try StoreDatabase.subscriptionSnapshots(db)
        holdings.signedIn = try StoreDatabase.signedInAppleIds(db)
        holdings.families = try StoreDatabase.families(db)
        holdings.oneTimeCodes = try StoreDatabase.oneTimeCodes(db)
        let reported = try StoreDatabase.reportedTransactions(db)
        holdings.appleIds = Set(holdings.signedIn.values).union(holdings.families.joined()).union(reported.compactMap { reported in
            reported.record.pressedBy.flatMap { $0 == reported.record.account ? nil : reported.record.account }
        })
        holdings.transactions = reported.map { reported in
            let transaction = reported.record.transaction
            return StoreTransactionEntry(transactionId: transaction.id, productId: transaction.productId, state: transaction.state.rawValue,
                                         finished: reported.record.finished, applicationUsername: transaction.applicationUsername,
                                         error: transaction.error?.rawValue, account: reported.record.account,
                                         originalTransactionId: transaction.originalTransactionId, device: reported.device,
                                         appleOrderId: reported.appleOrderId, consumption: reported.consumption,
                                         appAccountToken: transaction.appAccountToken?.uuidString.lowercased(), apple: reported.entry,
                                         winBackOfferId: reported.winBackOfferId, billingPeriod: reported.billingPeriod)
        }
        let latest = reported.flatMap { [$0.record.transaction.date, $0.entry?.cancellationDate] }.compactMap { $0 }.max()
        holdings.clock = [try StoreDatabase.clock(db), latest].compactMap { $0 }.max()
        return holdings
    }

    private static func subscriptionEntry(_ chain: SubscriptionSnapshot) -> SubscriptionEntry {
        let status = chain.status
        return SubscriptionEntry(
            productId: status.productId, subscription_group_identifier: status.group, original_transaction_id: status.originalTransactionId,
            status: status.state.rawValue, expires_date_ms: milliseconds(chain.expiresAt.timeIntervalSince1970),
            auto_renew_status: chain.renewal.auto_renew_status, auto_renew_product_id: chain.renewal.auto_renew_product_id,
            is_in_billing_retry_period: chain.renewal.is_in_billing_retry_period,
            grace_period_expires_date_ms: chain.renewal.grace_period_expires_date_ms,
            expiration_intent: chain.renewal.expiration_intent,
            cancellation_date_ms: status.state == .revoked ? status.date.map { milliseconds($0.timeIntervalSince1970) } : nil)
    }

    // MARK: The backend

    private struct BackendHoldings {
        var credited: [Credit] = []
        var revoked: [RevokedCredit] = []
        var entitlements: [Entitlement] = []
        var appleQueue: [AppleRetry] = []
        var clientAlarms: [ClientAlarm] = []
        var replays: [ReceiptReplay] = []
        var transfers: [Transfer] = []
        var restorePolicy = RestorePolicy.transfer
        /// Each app user's products held through a live credit, and entitlements, by the backend's own rule (A2's moves
        /// and shares included).
        var held: [String: [String]] = [:]
        var entitled: [String: [Entitlement]] = [:]
        /// Who holds each purchase asked about, when the backend has one.
        var heldBy: [String: [String]] = [:]
    }

    private static func backendHoldings(_ db: Database, holdersOf purchases: Set<String>) throws -> BackendHoldings {
        let (live, revoked) = try BackendDatabase.ledger(db)
        // Support's lists, in a file new enough to have them (`state` never migrates what it reads).
        func all<Record: FetchableRecord & TableRecord>(_ type: Record.Type, by column: String) throws -> [Record] {
            try db.tableExists(Record.databaseTableName) ? Record.order(Column(column)).fetchAll(db) : []
        }
        var holdings = BackendHoldings(credited: live, revoked: revoked, entitlements: try BackendDatabase.entitlements(db),
                                       appleQueue: try all(AppleRetry.self, by: "nextAt"), clientAlarms: try all(ClientAlarm.self, by: "receivedAt"),
                                       replays: try all(ReceiptReplay.self, by: "at"), transfers: try BackendDatabase.transfers(db),
                                       restorePolicy: try BackendDatabase.restorePolicy(db))
        let moved = try db.tableExists("holding")
        for user in Set(live.map(\.user)).union(holdings.entitlements.map(\.user)).union(holdings.transfers.map(\.to)) {
            holdings.held[user] = try BackendDatabase.heldProducts(db, user: user, base: live.filter { $0.user == user }.map(\.productId))
            holdings.entitled[user] = moved ? try BackendDatabase.entitlements(db, user: user) : holdings.entitlements.filter { $0.user == user }
        }
        for original in purchases {
            let holders = try BackendDatabase.heldBy(db, original: original)
            if !holders.isEmpty { holdings.heldBy[original] = holders }
        }
        return holdings
    }

    private static func creditEntry(_ credit: Credit) -> CreditEntry {
        CreditEntry(transactionId: credit.transactionId, user: credit.user, productId: credit.productId, orderId: credit.orderId, coins: credit.coins)
    }

    // MARK: The client

    private static func clientUsers(_ db: Database) throws -> [String: ClientUser] {
        let (orders, intents) = try ClientDatabase.holdings(db)
        let pending = Dictionary(grouping: orders, by: \.user), open = Dictionary(grouping: intents, by: \.user)
        var users: [String: ClientUser] = [:]
        for user in Set(pending.keys).union(open.keys) {
            users[user] = ClientUser(
                pending: (pending[user] ?? []).map {
                    .init(transactionId: $0.transactionId, productId: $0.productId, orderId: $0.orderId, attempts: $0.attempts, status: $0.status.rawValue)
                },
                openIntents: (open[user] ?? []).map { .init(id: $0.id, productId: $0.productId, orderId: $0.orderId, interrupted: $0.interrupted) })
        }
        return users
    }

    // MARK: Reading

    private static func milliseconds(_ seconds: Double) -> String { Receipt.Entry.milliseconds(Date(timeIntervalSince1970: seconds)) }

    private static func read<T>(_ path: String, as identity: DataFileIdentity, unused: Bool, _ body: (Database) throws -> T) throws -> T {
        let queue = try DataFile.openForReading(path, as: identity, unused: unused)
        do {
            return try queue.inDatabase(body)
        } catch let error as DatabaseError {
            throw DataFileError(path: path, problem: error.message ?? "\(error)")
        }
    }
}
