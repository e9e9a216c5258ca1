import Foundation
import IAPApp
import IAPCore
import Launcher
import StoreServer

/// The wire as `iapsim-wire` runs it beside the app: a team's backend, Apple's endpoints served, notifications sent,
/// each answer handed to the main loop's thread.
public final class LiveWire: WirePart {
    private let thread = PartyThread()
    private var remote: RemoteBackend?
    private var server: ServerRunner?
    private var notifier: NotificationRunner?

    public init() {}

    public func remoteBackend(url: String) -> any Backend {
        let backend = RemoteBackend(url: url, thread: thread)
        remote = backend
        return backend
    }

    public func serve(port: Int, session: AppSession, catalog: [Product]) -> String? {
        let runner: ServerRunner
        do {
            runner = try ServerRunner(parties: session.parties, catalog: catalog, thread: thread, now: { [unowned session] in session.timers.now })
        } catch {
            return "\(error)"
        }
        if case let .failed(reason) = runner.startAndWait(port: port) { return reason }
        server = runner
        connectTestNotification()
        return nil
    }

    public func notify(url: URL) {
        notifier = NotificationRunner(url: url, thread: thread)
        connectTestNotification()
    }

    /// The test notification a server asks for goes where every notification goes.
    private func connectTestNotification() {
        guard let server, let notifier else { return }
        server.served.onTestNotification = { notifier.sendTest(uuid: $0) }
    }

    public func attach(_ session: AppSession) {
        server?.attach(session.parties)
    }

    public func turn(_ session: AppSession) {
        thread.runJobs()
        for line in remote?.takeExchanges() ?? [] { session.note(line) }
        if let server {
            for line in server.newExchanges() { session.note(line) }
            if case let .serving(port) = server.state, session.runtime.state.servingAt == nil {
                session.runtime.send(.serving("127.0.0.1:\(port)"))
            }
        }
        notifier?.follow(session)
        notifier?.runJobs()
    }

    /// While serving or calling a team's backend, an answer waits at most a poll for the parties' thread to look up from
    /// the keyboard; a notification's sender, a tenth of a second.
    public var poll: Double { server != nil || remote != nil ? 0.02 : notifier != nil ? 0.1 : 1.0 }

    public func stop() {
        server?.stop()
        notifier?.stop()
    }
}
