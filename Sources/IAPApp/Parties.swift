import Foundation
import ClientPersistence
import IAPCore
import MockBackend
import MockStore

/// The three parties, each on its own database under the data directory, as on a phone and its servers.
public final class Parties {
    public let store: MockPaymentQueue
    public let backend: MockBackend
    public let vault: ClientDatabase

    public init(store: MockPaymentQueue, backend: MockBackend, vault: ClientDatabase) {
        self.store = store
        self.backend = backend
        self.vault = vault
    }

    /// Opens (creating when new) every party's database in `directory`.
    public static func open(in directory: DataDirectory, catalog: [Product], scheduler: Scheduler, latency: Latency = Latency()) throws -> Parties {
        let store = try MockPaymentQueue(database: StoreDatabase(path: directory.store), catalog: catalog, scheduler: scheduler, latency: latency.store)
        let backend = MockBackend(database: try BackendDatabase(path: directory.backend), catalog: catalog,
                                  receiptKey: store.receiptPublicKey, scheduler: scheduler, latency: latency.backend)
        let vault = try ClientDatabase(keychainPath: directory.keychain, sandboxPath: directory.sandbox)
        return Parties(store: store, backend: backend, vault: vault)
    }

    public struct Latency: Sendable {
        public var store: MockPaymentQueue.Latency
        public var backend: MockBackend.Latency

        public init(store: MockPaymentQueue.Latency = .init(), backend: MockBackend.Latency = .init()) {
            self.store = store
            self.backend = backend
        }
    }

    public func arm(_ fault: Fault) {
        set(fault, true)
    }

    func set(_ fault: Fault, _ on: Bool) {
        if on {
            store.faults.insert(fault)
            backend.faults.insert(fault)
        } else {
            store.faults.remove(fault)
            backend.faults.remove(fault)
        }
    }

    func onStoreError(_ report: @escaping (String) -> Void) {
        store.onError = report
    }
}
