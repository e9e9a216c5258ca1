import Foundation
import GRDB
import IAPApp
import IAPCore
import IAPUI
import MockBackend
@testable import MockStore
import ClientPersistence
import DataFiles
import Testing

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let shippedCatalog = try! CatalogLoader.load(path: repositoryRoot.appendingPathComponent("assets/catalog.json").path)

/// An `AppSession` in a fresh temporary directory, with readers of what each party holds.
final class Harness {
    let session: AppSession

    init(user: String? = nil, faults: ArmedFaults = [], policy: VerifyPolicy = VerifyPolicy(), serial: Bool = true,
         catalog: [Product] = shippedCatalog, storeKit: StoreKitMode = .one, serverAPI: Bool = false, random: RandomSource = .system) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("iapsim-test-\(UUID().uuidString)").path
        try FreshData.lay(in: DataDirectory(path: path))
        var options = AppState(policy: policy, serialPurchases: serial, storeKit: storeKit)
        options.serverAPIBackend = serverAPI
        session = try AppSession(directory: DataDirectory(path: path), catalog: catalog, options: options, faults: faults, user: user,
                                 random: random)
        if ProcessInfo.processInfo.environment["IAPSIM_TRACE"] == "1" {
            session.onAction = { now, action, effects in
                print("  \(now.timeIntervalSince(AppSession.epoch)) \(action) -> \(effects)")
            }
        }
    }

    /// Alice bought the first product while the parties had `faults` (the backend down by default): one order pending.
    static func paidWhile(_ faults: ArmedFaults = [.backendDown]) throws -> Harness {
        let app = try Harness(user: "alice", faults: faults)
        app.advance(0.5)
        app.press(.enter)
        app.advance(3)
        return app
    }

    deinit { try? FileManager.default.removeItem(atPath: directory.path) }

    var directory: DataDirectory { session.directory }
    var timers: TimerQueue { session.timers }
    var parties: Parties { session.parties }
    var runtime: AppRuntime { session.runtime }
    var state: AppState { session.state }

    /// Drops every object of the running app on the floor, as `kill -9` does, and starts a new one on the same files.
    func relaunch(user: String? = nil, faults: ArmedFaults? = nil) throws {
        try session.relaunch(user: user, faults: faults)
    }

    func press(_ keys: Key...) {
        for key in keys { session.press(key) }
    }

    func type(_ text: String) { session.type(text) }

    /// Logs out (past the pending-orders warning) and in again as `name`, by keys.
    func logIn(_ name: String) {
        press(.escape, .char("L"))
        if screen().contains("log out anyway") { press(.right, .enter) }
        type(name)
        press(.enter)
        advance(0.5)
    }

    func advance(_ seconds: Double) { session.advance(seconds) }

    /// alice bought `productId` with the phone's Apple ID `sandbox-1`, then bob logged in on the phone (A1).
    static func aliceBoughtThenBob(_ productId: String, policy: RestorePolicy? = nil, storeKit: StoreKitMode = .one) throws -> Harness {
        let app = try Harness(user: "alice", storeKit: storeKit)
        if let policy { app.parties.backend.restorePolicy = policy }
        app.runtime.send(.intent(.signInAppleId("sandbox-1")))
        app.advance(0.5)
        app.buy(productId)
        app.logIn("bob")
        return app
    }

    /// Moves the product list's cursor to `productId` in the shipped catalog.
    func select(_ productId: String) {
        let index = shippedCatalog.firstIndex { $0.id == productId }!
        for _ in 0..<shippedCatalog.count { press(.up) }
        for _ in 0..<index { press(.down) }
    }

    /// Selects `productId` in the shipped catalog, buys it, waits for the sheet and closes it.
    func buy(_ productId: String) {
        select(productId)
        press(.enter)
        advance(5)
        press(.escape)
    }

    func screen(width: Int = 80, height: Int = 24, theme: Theme = .monochrome) -> String {
        session.screen(width: width, height: height, theme: theme).text
    }

    // What each party holds, read from its own database through a connection of the test's own.
    private lazy var storeReader = try? StoreDatabase(path: directory.store)
    private lazy var backendReader = try? BackendDatabase(path: directory.backend)
    func storeTransactions() throws -> [(StoreTransaction, finished: Bool)] { try storeReader!.all().map { ($0.transaction, $0.finished) } }
    /// With what only Apple knows: the account that paid.
    func storeRecords() throws -> [StoreRecord] { try storeReader!.all() }
    func credits() throws -> [Credit] { try backendReader!.credits() }
    /// Credits Apple took back (refunds): credited once all the same.
    func revokedCredits() throws -> [RevokedCredit] { try backendReader!.revokedCredits() }
    /// Each subscription transaction's web order line item: the charge it is, or the charge a restore of it re-delivers.
    func webOrders() throws -> [String: String] {
        try storeReader!.queue.inDatabase { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db.cachedStatement(sql: """
                SELECT id, webOrderLineItemId FROM storeTransaction WHERE webOrderLineItemId IS NOT NULL
                """)).map { ($0[0] as String, $0[1] as String) })
        }
    }
    /// Each family member's own transaction for another Apple ID's purchase (A4): Apple's, charged nothing, and on no
    /// device until the member restores it.
    func familyCopies() throws -> Set<String> {
        try storeReader!.queue.inDatabase { db in
            Set(try String.fetchAll(db.cachedStatement(sql: "SELECT id FROM storeTransaction WHERE sharedFrom IS NOT NULL AND originalTransactionId IS NULL")))
        }
    }
    /// Apple's records of the store, as its Server API and notifications read them.
    var appleRecords: AppleRecords { AppleRecords(database: parties.store.database, catalog: shippedCatalog) }
    /// The latest charge's transaction id (the purchase just made).
    func latestChargeId() throws -> String {
        try #require(try charges().last).transaction.id
    }
    /// What Apple charged for: every `purchased` transaction but a free one (S7), which names the purchase it repeats
    /// (a non-consumable's first purchase) or repeats a charge's web order line item (the subscription's latest), or is
    /// a family member's copy of another Apple ID's purchase (A4).
    func charges() throws -> [StoreRecord] {
        let webOrders = try webOrders()
        let familyCopies = try familyCopies()
        let records = try storeRecords().sorted { $0.transaction.id.localizedStandardCompare($1.transaction.id) == .orderedAscending }
        // A line item's charge is its earliest purchase: a re-delivery is dated when it was made, after the charge, though
        // a re-buy numbered when its sheet opened may have the lower number.
        var chargeOfLineItem: [String: String] = [:]
        let byDate = records.filter { $0.transaction.state == .purchased }
            .sorted { ($0.transaction.date, Int($0.transaction.id) ?? 0) < ($1.transaction.date, Int($1.transaction.id) ?? 0) }
        for record in byDate {
            if let lineItem = webOrders[record.transaction.id], chargeOfLineItem[lineItem] == nil { chargeOfLineItem[lineItem] = record.transaction.id }
        }
        return records.filter { record in
            guard let lineItem = webOrders[record.transaction.id] else {
                return record.transaction.state == .purchased && record.transaction.originalTransactionId == nil
                    && !familyCopies.contains(record.transaction.id)
            }
            return chargeOfLineItem[lineItem] == record.transaction.id
        }
    }
    /// Apple's subscription and refund fields of these transactions.
    func storeDetails(_ ids: [String]) throws -> [String: TransactionDetails] { try storeReader!.details(ids) }
    /// Every subscription chain, of every Apple ID.
    func chains() throws -> [SubscriptionSnapshot] { try storeReader!.queue.inDatabase(StoreDatabase.subscriptionSnapshots) }
    func clientOrders() throws -> [PendingOrder] { try parties.vault.allOrders() }
    /// What the store told the app's server, oldest first, as TYPE or TYPE/SUBTYPE.
    func notificationKinds() throws -> [String] {
        try parties.store.database.recentNotifications(limit: 100).reversed().map {
            $0.notification.kind.rawValue + ($0.notification.subtype.map { "/" + $0.rawValue } ?? "")
        }
    }
    /// How many transactions the store holds unfinished in a device's queue.
    func unfinishedInStore(on device: String) throws -> Int {
        try storeReader!.queue.inDatabase { db in
            try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM storeTransaction WHERE finished = 0 AND device = ?"), arguments: [device]) ?? 0
        }
    }
}

/// The four databases a first launch makes, made once per process and laid down for each harness: what every harness
/// starts from is the same files, without running every migration of every party again (most of a short test's time).
/// They were closed cleanly, so they are trusted as the launcher trusts the files it closed.
enum FreshData {
    private static let files: [(name: String, bytes: Data)] = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("iapsim-fresh-\(UUID().uuidString)").path
        let directory = DataDirectory(path: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let parties = try! Parties.open(in: directory, catalog: shippedCatalog, scheduler: TimerQueue(virtualStart: AppSession.epoch))
        try! parties.close()
        return [directory.store, directory.backend, directory.keychain, directory.sandbox].map {
            (($0 as NSString).lastPathComponent, FileManager.default.contents(atPath: $0)!)
        }
    }()

    static func lay(in directory: DataDirectory) throws {
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        var stamps: Set<FileStamp> = []
        for (name, bytes) in files {
            let file = directory.path + "/" + name
            guard FileManager.default.createFile(atPath: file, contents: bytes), let stamp = FileStamp(path: file) else {
                throw DataFileError(path: file, problem: "could not be laid down")
            }
            stamps.insert(stamp)
        }
        DataFile.trust(stamps)
    }
}

extension ArmedFaults {
    /// One fault armed once, as `o` arms it in the fault panel.
    static func once(_ fault: Fault, value: String? = nil) -> ArmedFaults {
        var faults = ArmedFaults()
        faults.insert(fault, FaultArm(value: value, once: true))
        return faults
    }
}
