import Foundation
import IAPApp
import IAPCore
import Launcher
import StoreServer

/// The wire beside the parties: the server on its own threads, its work handed to the parties' thread, which calls
/// `runJobs` between its own steps.
public final class ServerRunner {
    public let thread: PartyThread
    public let server: StoreServer
    /// What the endpoints act on; its `onTestNotification` sends Apple's TEST notification where notifications go.
    public let served: ServedParties
    private let outcome = Outcome()
    private var task: Task<Void, Never>?
    private var seen = 0

    /// Call on the parties' thread.
    public init(parties: Parties, catalog: [Product], thread: PartyThread = PartyThread(), now: @escaping () -> Date) throws {
        self.thread = thread
        served = ServedParties(store: parties.store, backend: parties.backend, faults: parties.faults, catalog: catalog, now: now)
        server = try StoreServer(served: served, parties: thread)
    }

    /// Serves the parties the app runs now (after a relaunch, a crash on purpose, a scenario).
    public func attach(_ parties: Parties) {
        served.attach(store: parties.store, backend: parties.backend, faults: parties.faults)
    }

    /// The exchanges since the last call, in a line each for the timeline.
    public func newExchanges() -> [Localized] {
        let (exchanges, newest) = server.log.exchanges(after: seen)
        seen = newest
        return exchanges.map { exchange in
            let line = "\(exchange.method) /\(exchange.path.drop { $0 == "/" }) → \(exchange.status)"
                + (exchange.summary.isEmpty ? "" : " \(exchange.summary)") + " (\(exchange.milliseconds) ms)"
            return Localized(en: "wire: " + line, zh: "网络:" + line)
        }
    }

    /// Starts serving on 127.0.0.1:`port` (0: any free port).
    public func start(port: Int) {
        task = Task.detached { [server, outcome] in
            do {
                try await server.run(port: port) { outcome.set(.serving(port: $0)) }
            } catch {
                outcome.set(.failed(PortNumber.cannotServe(port: port, reason: ServerRunner.reason(error))))
            }
        }
    }

    /// Starts serving and waits (running the parties' jobs meanwhile) until the port is bound or binding failed.
    public func startAndWait(port: Int) -> State {
        start(port: port)
        let deadline = Date(timeIntervalSinceNow: 10)
        while state == .starting, Date() < deadline { thread.runJobs(waitingUpTo: 0.01) }
        return state
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
