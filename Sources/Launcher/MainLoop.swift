import IAPApp
import IAPCore
import IAPUI
import StoreServer
import Terminal

/// Keys and timers in, frames out, until the app quits, crashes on purpose or the terminal goes away.
struct MainLoop {
    enum Ending { case quit, crashed(String), signal(Int32) }

    var session: AppSession {
        didSet {
            session.host = host
            wire?.attach(session.parties)
        }
    }
    /// Apple's endpoints served while the app runs (`--serve`): their work runs here, between the app's own steps.
    var wire: ServerRunner?
    /// Where answers from the network wait for this loop, and the team's backend the client calls, if any (`--backend`).
    var network: (thread: PartyThread, remote: RemoteBackend?)?
    let terminal: TerminalSession
    let theme: Theme
    let exitAfterFirstFrame: Bool
    /// Sets a scenario up, in the language the app speaks now, and gives the session to hand over.
    var startScenario: (String, Language) throws -> AppSession = { _, _ in throw CancellationError() }
    /// `--notify`: sends what the store tells the app's server; its outbox work runs here, on the parties' thread.
    var notifier: NotificationRunner?
    /// What the app asked of the program around it, acted on between two of its steps.
    private let host = HostRequests(scenarios: { Scenarios.list })

    init(session: AppSession, terminal: TerminalSession, theme: Theme, exitAfterFirstFrame: Bool) {
        self.session = session
        self.terminal = terminal
        self.theme = theme
        self.exitAfterFirstFrame = exitAfterFirstFrame
        session.host = host
    }

    mutating func run() -> Ending {
        while true {
            if let ending = actOnRequests() { return ending }
            if let signal = terminal.caughtSignal { return .signal(signal) }
            let runtime = session.runtime
            runtime.timers.runDue()
            serveWire()
            notifier?.follow(session)
            notifier?.runJobs()
            if let ending = actOnRequests() { return ending }
            runtime.refreshClock()
            let size = terminal.size
            let tooSmall = size.width < Renderer.minimumWidth || size.height < Renderer.minimumHeight
            terminal.draw(session.screen(width: size.width, height: size.height, theme: theme))
            if exitAfterFirstFrame, runtime.state.productsStatus == .loaded { return .quit }
            // While serving or calling a team's backend, an answer waits at most a poll for the parties' thread to look up
            // from the keyboard; a notification's sender, a tenth of a second.
            let longest = wire != nil || network?.remote != nil ? 0.02 : notifier != nil ? 0.1 : 1.0
            let untilNext = min(runtime.timers.nextDue.map { runtime.timers.wallSeconds(until: $0) } ?? longest, longest)
            switch terminal.nextEvent(timeout: Int32(max(0, untilNext) * 1000)) {
            // Keys act only on a screen someone can see: while it is too small, only quit (q) gets through.
            case let .key(key):
                let answersQuit = runtime.state.modal == .quitConfirm && (key == .char("y") || key == .escape)
                if !tooSmall || key == .char("q") || answersQuit { runtime.send(.key(key)) }
            case .hangup: return .quit
            case .resize, nil: break
            }
        }
    }

    /// Runs what the network handed over (requests to --serve, a team's backend's answers), puts each exchange on the
    /// timeline, and keeps the status line's address true after a relaunch.
    private func serveWire() {
        guard let network else { return }
        network.thread.runJobs()
        for line in network.remote?.takeExchanges() ?? [] { session.note(line) }
        guard let wire else { return }
        for line in wire.newExchanges() { session.note(line) }
        if case let .serving(port) = wire.state, session.runtime.state.servingAt == nil {
            session.runtime.send(.serving("127.0.0.1:\(port)"))
        }
    }

    /// Quits, crashes, reinstalls or hands a scenario over, as the app asked.
    private mutating func actOnRequests() -> Ending? {
        for request in host.take() {
            switch request {
            case .quit:
                return .quit
            case let .crashed(reason):
                return .crashed(reason)
            case .reinstall:
                do { try session.reinstall() } catch { return .crashed("reinstall failed: \(error)") }
            case let .startScenario(name):
                do {
                    session = try startScenario(name, session.state.lang)
                } catch {
                    return .crashed("scenario \(name) could not be set up: \(error)")
                }
            }
        }
        return nil
    }
}
