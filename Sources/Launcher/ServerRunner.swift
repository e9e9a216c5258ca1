import Foundation
import IAPApp
import IAPCore
import StoreServer

/// The wire beside the parties: the server on its own threads, its work handed to the parties' thread, which calls
/// `runJobs` between its own steps.
public final class ServerRunner {
    public let thread = PartyThread()
    public let server: StoreServer
    private let outcome = Outcome()
    private var task: Task<Void, Never>?

    /// Call on the parties' thread.
    public init(parties: Parties, catalog: [Product], now: @escaping () -> Date) throws {
        let served = ServedParties(store: parties.store, backend: parties.backend, faults: parties.faults, catalog: catalog, now: now)
        server = try StoreServer(served: served, parties: thread)
    }

    /// Starts serving on 127.0.0.1:`port` (0: any free port).
    public func start(port: Int) {
        task = Task.detached { [server, outcome] in
            do {
                try await server.run(port: port) { outcome.set(.serving(port: $0)) }
            } catch {
                outcome.set(.failed("cannot serve on 127.0.0.1:\(port) (\(ServerRunner.reason(error))); pass another --port, or 0 for any free one"))
            }
        }
    }

    /// Serving on this port, failed for this reason, or not yet either.
    public var state: State { outcome.get() }

    public enum State: Sendable, Equatable {
        case starting
        case serving(port: Int)
        case failed(String)
    }

    public func stop() {
        task?.cancel()
    }

    static func reason(_ error: Error) -> String {
        let text = "\(error)"
        return text.contains("Address already in use") || text.contains("EADDRINUSE") ? "the port is in use" : text
    }

    private final class Outcome: @unchecked Sendable {
        private let lock = NSLock()
        private var state = State.starting

        func set(_ new: State) {
            lock.lock()
            state = new
            lock.unlock()
        }

        func get() -> State {
            lock.lock()
            defer { lock.unlock() }
            return state
        }
    }
}
