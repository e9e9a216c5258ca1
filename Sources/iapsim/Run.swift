import ArgumentParser
import Foundation
import IAPApp
import IAPCore
import IAPUI
import Terminal

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Start the app (the default command).")

    @OptionGroup var data: DataOptions

    @Option(help: "Log in as this user at once.")
    var user: String?

    @Option(help: "Language: en or zh.")
    var lang: Language = .en

    @OptionGroup var catalog: CatalogOption

    @Option(name: .customLong("fault"), help: ArgumentHelp("Arm a fault at launch (repeatable); `iapsim faults` lists them.", valueName: "name[=value][:once]"),
            transform: FaultSpec.init)
    var faults: [FaultSpec] = []

    @Option(help: "Set up a shipped scenario (`iapsim scenarios`) on its own data under the data directory, then hand it over.")
    var scenario: String?

    @Flag(help: "Allow a new purchase while another order is unfinished (the default is serial, C9).")
    var parallel = false

    @Option(parsing: .unconditional, help: "Run the app's clock this many times faster (back-off waits, store and backend delays), 0.1 to 1000.",
            transform: { try number($0, option: "--speed", in: Run.speeds) })
    var speed: Double = 1

    static let speeds = 0.1...1000.0

    @Flag(help: .hidden)
    var exitAfterFirstFrame = false

    /// For benchmarks: after the first frame, render and flush this many full frames and write the median time to FILE.
    @Option(help: .hidden)
    var benchFrames: String?

    /// For benchmarks: the mock parties answer at once instead of after human-visible delays.
    @Flag(help: .hidden)
    var instant = false

    func run() throws {
        setlocale(LC_ALL, "")
        // Everything that can be checked is checked before the terminal and the data directory are touched: a mistake
        // on the command line is named as such (exit 64) whatever runs it, and a failure leaves nothing behind.
        var user = user
        do { user = try user.map(UserName.normalized) } catch { Console.fail("--user: \(error)", code: ExitCode.validationFailure.rawValue) }
        if let scenario {
            do { _ = try Scenarios.script(scenario) } catch { Console.fail("--scenario: \(error)", code: ExitCode.validationFailure.rawValue) }
        }
        guard isatty(0) == 1, isatty(1) == 1 else {
            Console.fail("needs an interactive terminal (stdin and stdout must be a TTY); `iapsim state` prints the data without one", code: 2)
        }
        do { try TerminalSession.check() } catch { Console.fail("\(error)") }
        let products = catalog.load()
        let directory = data.lockedDirectory()

        let latency = instant ? Parties.Latency.instant : Parties.Latency()
        let options = AppState(lang: lang, serialPurchases: !parallel)
        /// A shipped scenario set up on its own data, in the language the app speaks at that moment.
        let setUpScenario = { (name: String, lang: Language) throws -> AppSession in
            var options = options
            options.lang = lang
            return try Scenarios.setUp(name, under: directory, catalog: products, options: options, speed: speed)
        }
        let session: AppSession
        do {
            if let scenario {
                session = try setUpScenario(scenario, lang)
            } else {
                session = try AppSession(directory: directory, catalog: products, options: options, faults: FaultSpec.armed(faults),
                                         user: user, latency: latency, clock: .live(speed: speed))
                session.scenarioSource = { Scenarios.list }
            }
        } catch {
            Console.fail("\(error)")
        }

        let monochrome = !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        let terminal: TerminalSession
        do {
            terminal = try TerminalSession(monochrome: monochrome)
        } catch {
            Console.fail("\(error)")
        }
        Console.keepWhatWasMade()
        let theme: Theme = monochrome ? .monochrome : .color
        var loop = MainLoop(session: session, terminal: terminal, theme: theme, exitAfterFirstFrame: exitAfterFirstFrame)
        loop.startScenario = setUpScenario
        let ending = loop.run()
        let frameMedian = benchFrames.map { _ in FrameBench.run(session: session, terminal: terminal, theme: theme) }
        terminal.close()
        if let benchFrames, let frameMedian {
            try Data(String(format: "%.3f\n", frameMedian).utf8).write(to: URL(fileURLWithPath: benchFrames))
            return
        }
        switch ending {
        case let .crashed(reason):
            Console.fail("crashed on purpose (\(reason)); run iapsim again to see the recovery", code: 137)
        case let .signal(number):
            // As a shell reports a process a signal ended: 128 + N (SIGINT 130, SIGTERM 143).
            Foundation.exit(128 + number)
        case .quit:
            break
        }
    }
}

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
