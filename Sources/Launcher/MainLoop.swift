import IAPApp
import IAPCore
import IAPUI
import Terminal

/// Keys and timers in, frames out, until the app quits, crashes on purpose or the terminal goes away.
struct MainLoop {
    enum Ending { case quit, crashed(Localized), signal(Int32) }

    var session: AppSession {
        didSet {
            session.host = host
            wire?.attach(session)
        }
    }
    /// The wire beside the app (`--serve`, `--backend`, `--notify`): its work runs here, between the app's own steps.
    var wire: (any WirePart)?
    let terminal: TerminalSession
    let theme: Theme
    let exitAfterFirstFrame: Bool
    /// Sets a scenario up, in the language the app speaks now and with its lists where they were left, and gives the
    /// session to hand over.
    var startScenario: (String, AppState) throws -> AppSession = { _, _ in throw CancellationError() }
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
            runtime.refreshClock()
            let size = terminal.size
            let tooSmall = size.width < Renderer.minimumWidth || size.height < Renderer.minimumHeight
            terminal.draw(session.screen(width: size.width, height: size.height, theme: theme))
            if exitAfterFirstFrame {
                if runtime.state.productsStatus == .loaded { return .quit }
                if case .unfinished? = runtime.state.modal { return .quit }
            }
            let longest = wire?.poll ?? 1.0
            let untilNext = min(runtime.timers.nextDue.map { runtime.timers.wallSeconds(until: $0) } ?? longest, longest)
            switch terminal.nextEvent(timeout: Int32(max(0, untilNext) * 1000)) {
            // Keys act only on a screen someone can see: while it is too small, only quit (q) gets through.
            case let .key(key):
                let answersQuit = runtime.state.modal == .quitConfirm && (key == .char("y") || key == .escape)
                if !tooSmall || key == .char("q") || answersQuit { runtime.send(.key(key)) }
            case .hangup: return .quit
            case .resize, nil: break
            }
            if let ending = actOnRequests() { return ending }
            // What came due (a party's answer, a long queue's next batch) runs after the frame it would have held up:
            // the app's first state is drawn before anything deferred.
            session.runtime.timers.runDue()
            wire?.turn(session)
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
                do { try session.reinstall() } catch { return .crashed(Localized(en: "reinstall failed: \(error)", zh: "重装失败:\(error)")) }
            case let .startScenario(name):
                do {
                    session = try startScenario(name, session.state)
                } catch {
                    return .crashed(Localized(en: "scenario \(name) could not be set up: \(error)", zh: "场景 \(name) 无法建立:\(error)"))
                }
            }
        }
        return nil
    }
}
