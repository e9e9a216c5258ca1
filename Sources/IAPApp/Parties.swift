import Foundation
import ClientPersistence
import IAPCore
import MockBackend
import MockStore
import StoreSigning

/// The three parties, each on its own database under the data directory, as on a phone and its servers.
public final class Parties {
    public let store: MockPaymentQueue
    /// The built-in backend: its ledger is what the inspector, `iapsim state` and the scripts read.
    public let backend: MockBackend
    /// The server the client calls: the built-in backend, or a team's own behind the same contract (`--backend URL`).
    public var clientBackend: Backend
    public let vault: ClientDatabase
    /// The faults armed right now, shared by the store and the backend.
    public let faults: FaultBoard

    public init(store: MockPaymentQueue, backend: MockBackend, vault: ClientDatabase, faults: FaultBoard) {
        self.store = store
        self.backend = backend
        clientBackend = backend
        self.vault = vault
        self.faults = faults
    }

    /// Opens (creating when new) every party's database in `directory`. When one cannot be opened, the files this
    /// attempt created are removed again: a failed launch leaves the directory as it found it.
    public static func open(in directory: DataDirectory, catalog: [Product], scheduler: Scheduler, latency: Latency = Latency(),
                            faults: ArmedFaults = []) throws -> Parties {
        let files = [directory.store, directory.backend, directory.keychain, directory.sandbox].flatMap { [$0, $0 + "-wal", $0 + "-shm"] }
        let new = files.filter { !FileManager.default.fileExists(atPath: $0) }
        do {
            return try openEach(in: directory, catalog: catalog, scheduler: scheduler, latency: latency, faults: faults)
        } catch {
            // By now the parties opened are closed again (their objects went with the failed attempt).
            for file in new { unlink(file) }
            throw error
        }
    }

    private static func openEach(in directory: DataDirectory, catalog: [Product], scheduler: Scheduler, latency: Latency,
                                 faults: ArmedFaults) throws -> Parties {
        let board = FaultBoard(faults)
        let store = try MockPaymentQueue(database: StoreDatabase(path: directory.store, device: directory.device), catalog: catalog,
                                         signer: ChainSigner.of, scheduler: scheduler, latency: latency.store, faults: board)
        let backend = MockBackend(database: try BackendDatabase(path: directory.backend), catalog: catalog,
                                  apple: store.receiptService, serverAPI: store.records, scheduler: scheduler, latency: latency.backend, faults: board)
        let vault = try ClientDatabase(keychainPath: directory.keychain, sandboxPath: directory.sandbox)
        // Apple's side tells the app's server what happens without the app, as App Store Server Notifications do.
        store.onNotification = { [unowned backend] in backend.receive($0) }
        // The team downloaded the subscription offers key from App Store Connect: the server signs with what Apple checks.
        backend.offersKey = { [unowned store] in store.offersKeyPair?.key }
        // The server trusts Apple's root: here, the one the store signs with.
        backend.trustedRoot = { [unowned store] in store.trustedRoot }
        return Parties(store: store, backend: backend, vault: vault, faults: board)
    }

    /// Closes every party's database, as quitting the app does (and a kill does not). Nothing may run after.
    public func close() throws {
        try store.close()
        try backend.database.close()
        try vault.close()
    }

    public struct Latency: Sendable {
        public var store: MockPaymentQueue.Latency
        public var backend: MockBackend.Latency

        public init(store: MockPaymentQueue.Latency = .init(), backend: MockBackend.Latency = .init()) {
            self.store = store
            self.backend = backend
        }

        /// Every party answers at once: benchmarks and the engine's throughput.
        public static let instant = Latency(store: .init(products: 0, payment: 0), backend: .init(order: 0, verify: 0))
    }

    func onStoreError(_ report: @escaping (String) -> Void) {
        store.onError = report
    }
}
