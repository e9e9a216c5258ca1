import Foundation
import IAPApp
import IAPCore
import IAPUI
import MockBackend
import MockStore
import ClientPersistence

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let shippedCatalog = try! CatalogLoader.load(path: repositoryRoot.appendingPathComponent("assets/catalog.json").path)

/// The whole app on the real parties and a virtual clock: keys in, screens and databases out.
final class Harness {
    let directory: DataDirectory
    private(set) var timers: TimerQueue
    private(set) var parties: Parties
    private(set) var runtime: AppRuntime
    let options: AppState
    var faults: Set<Fault> = []

    init(user: String? = nil, faults: Set<Fault> = [], policy: VerifyPolicy = VerifyPolicy(), serial: Bool = true) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("iapsim-test-\(UUID().uuidString)").path
        directory = DataDirectory(path: path)
        options = AppState(policy: policy, serialPurchases: serial)
        self.faults = faults
        timers = TimerQueue(virtualStart: Date(timeIntervalSince1970: 1_800_000_000))
        (parties, runtime) = try Self.launch(directory, timers: timers, options: options, faults: faults, user: user)
    }

    /// Alice bought the first product while the parties had `faults` (the backend down by default): one order pending.
    static func paidWhile(_ faults: Set<Fault> = [.backendDown]) throws -> Harness {
        let app = try Harness(user: "alice", faults: faults)
        app.advance(0.5)
        app.press(.enter)
        app.advance(3)
        return app
    }

    deinit { try? FileManager.default.removeItem(atPath: directory.path) }

    private static func launch(_ directory: DataDirectory, timers: TimerQueue, options: AppState, faults: Set<Fault>, user: String?) throws -> (Parties, AppRuntime) {
        let parties = try Parties.open(in: directory, catalog: shippedCatalog, scheduler: timers)
        for fault in faults { parties.arm(fault) }
        var state = options
        state.faults = faults
        state.now = timers.now
        let runtime = AppRuntime(state: state, parties: parties, timers: timers)
        if ProcessInfo.processInfo.environment["IAPSIM_TRACE"] == "1" {
            runtime.onAction = { action, effects in print("  \(timers.now.timeIntervalSince1970 - 1_800_000_000) \(action) -> \(effects)") }
        }
        runtime.start(user: user)
        return (parties, runtime)
    }

    var state: AppState { runtime.state }

    /// Drops every object of the running app on the floor, as `kill -9` does, and starts a new one on the same files.
    func relaunch(user: String? = nil, faults newFaults: Set<Fault>? = nil) throws {
        if let newFaults { faults = newFaults }
        timers = TimerQueue(virtualStart: timers.now)
        (parties, runtime) = try Self.launch(directory, timers: timers, options: options, faults: faults, user: user)
    }

    func press(_ keys: Key...) {
        for key in keys { runtime.send(.key(key)) }
    }

    func type(_ text: String) {
        for c in text { runtime.send(.key(.char(c))) }
    }

    func advance(_ seconds: Double) {
        timers.advance(by: seconds)
        runtime.refreshClock()
    }

    func screen(width: Int = 80, height: Int = 24, theme: Theme = .monochrome) -> String {
        Renderer.render(runtime.state, width: width, height: height, theme: theme).text
    }

    // What each party holds, read from its own database through a connection of the test's own.
    private lazy var storeReader = try? StoreDatabase(path: directory.store)
    private lazy var backendReader = try? BackendDatabase(path: directory.backend)
    func storeTransactions() throws -> [(StoreTransaction, finished: Bool)] { try storeReader!.all() }
    func credits() throws -> [Credit] { try backendReader!.credits() }
    func clientOrders() throws -> [PendingOrder] { try parties.vault.allOrders() }
}
