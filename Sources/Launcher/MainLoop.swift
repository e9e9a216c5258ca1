import IAPApp
import IAPCore
import IAPUI
import Terminal

/// Keys and timers in, frames out, until the app quits, crashes on purpose or the terminal goes away.
struct MainLoop {
    enum Ending { case quit, crashed(String), signal(Int32) }

    var session: AppSession
    let terminal: TerminalSession
    let theme: Theme
    let exitAfterFirstFrame: Bool
    /// Sets a scenario up, in the language the app speaks now, and gives the session to hand over.
    var startScenario: (String, Language) throws -> AppSession = { _, _ in throw CancellationError() }

    mutating func run() -> Ending {
        while true {
            let runtime = session.runtime
            if let name = runtime.scenarioRequested {
                do {
                    session = try startScenario(name, runtime.state.lang)
                } catch {
                    return .crashed("scenario \(name) could not be set up: \(error)")
                }
                continue
            }
            if let signal = terminal.caughtSignal { return .signal(signal) }
            runtime.timers.runDue()
            if let reason = runtime.crashReason { return .crashed(reason) }
            if runtime.reinstallRequested {
                do { try session.reinstall() } catch { return .crashed("reinstall failed: \(error)") }
                continue
            }
            runtime.refreshClock()
            let size = terminal.size
            let tooSmall = size.width < Renderer.minimumWidth || size.height < Renderer.minimumHeight
            terminal.draw(session.screen(width: size.width, height: size.height, theme: theme))
            if runtime.state.quitting { return .quit }
            if exitAfterFirstFrame, runtime.state.productsStatus == .loaded { return .quit }
            let untilNext = runtime.timers.nextDue.map { runtime.timers.wallSeconds(until: $0) } ?? 1
            switch terminal.nextEvent(timeout: Int32(max(0, min(untilNext, 1)) * 1000)) {
            // Keys act only on a screen someone can see: while it is too small, only quit (q) gets through.
            case let .key(key):
                let answersQuit = runtime.state.modal == .quitConfirm && (key == .char("y") || key == .escape)
                if !tooSmall || key == .char("q") || answersQuit { runtime.send(.key(key)) }
            case .hangup: return .quit
            case .resize, nil: break
            }
        }
    }
}
