import Foundation
import IAPApp
import StoreServer

/// The app's `--notify`: a sender on the session's store, started anew whenever the session's parties are new (a
/// reinstall, a scenario handed over), whose work on the outbox the main loop runs between its own steps.
public final class NotificationRunner {
    let url: URL
    /// The thread every answer from the network waits on for the main loop (shared with `--serve` and `--backend`).
    let thread: PartyThread
    private var sender: NotificationSender?
    /// The parties the sender works on; weak, so that new parties are never taken for gone ones.
    private weak var parties: Parties?

    init(url: URL, thread: PartyThread) {
        self.url = url
        self.thread = thread
    }

    /// Sends from `session`'s store, starting a sender when its parties are not the ones sent from so far.
    func follow(_ session: AppSession) {
        guard session.parties !== parties else { return }
        sender?.stop()
        parties = session.parties
        do {
            sender = try NotificationSender(url: url, store: session.parties.store, scheduler: session.timers,
                                            thread: thread, onAttempt: { [weak session] in session?.note($0) })
        } catch {
            sender = nil
            session.runtime.send(.alarm(.storage(party: .store, detail: "notifications cannot be signed: \(error)")))
        }
    }

    /// Runs what the sender handed to the parties' thread (outbox reads and writes).
    func runJobs() {
        thread.runJobs()
    }

    /// Apple's TEST notification, asked for through the served App Store Server API.
    func sendTest(uuid: String) {
        sender?.sendTest(uuid: uuid)
    }

    func stop() {
        sender?.stop()
        sender = nil
    }
}
