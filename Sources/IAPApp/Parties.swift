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

    /// Opens (creating when new) every party's database in `directory`, unless `files` were opened already. When one
    /// cannot be opened or its party made, the files this launch created are removed again: a failed launch leaves the
    /// directory as it found it.
    /// `random`: what Apple and the server draw at random, as `scheduler` is their clock.
    public static func open(in directory: DataDirectory, catalog: [Product], scheduler: Scheduler, random: RandomSource = .system,
                            latency: Latency = Latency(), faults: ArmedFaults = [], files: PartyFiles? = nil) throws -> Parties {
        let files = try files ?? PartyFiles.open(in: directory)
        do {
            return try made(on: files, catalog: catalog, scheduler: scheduler, random: random, latency: latency, faults: faults)
        } catch {
            files.abandon()
            throw error
        }
    }

    private static func made(on files: PartyFiles, catalog: [Product], scheduler: Scheduler, random: RandomSource, latency: Latency,
                             faults: ArmedFaults) throws -> Parties {
        let board = FaultBoard(faults)
        files.store.random = random
        let store = try MockPaymentQueue(database: files.store, catalog: catalog, signer: ChainSigner.of, scheduler: scheduler,
                                         latency: latency.store, faults: board)
        let backend = MockBackend(database: files.backend, catalog: catalog, apple: store.receiptService, serverAPI: store.records,
                                  scheduler: scheduler, latency: latency.backend, faults: board)
        backend.random = random
        let vault = files.vault
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
