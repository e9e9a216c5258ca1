import ArgumentParser
import DefaultCatalog
import Foundation
import IAPApp
import IAPCore
import IAPUI
import MockStore
import Terminal

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Start the app (the default command).")

    @OptionGroup var data: DataOptions

    @Option(help: "Log in as this user at once.")
    var user: String?

    @Option(help: "Language: en or zh.")
    var lang: Language = .en

    @Option(help: "Product catalog: iapsim's JSON or an Xcode .storekit file (default: the shipped catalog).")
    var catalog: String?

    @Option(name: .customLong("fault"), help: "Arm a fault at launch (repeatable): \(Fault.allCases.map(\.rawValue).joined(separator: ", ")).")
    var faults: [Fault] = []

    @Flag(help: "Allow a new purchase while another order is unfinished (the default is serial, C9).")
    var parallel = false

    @Option(help: "Run the app's clock this many times faster (back-off waits, store and backend delays).")
    var speed: Double = 1

    @Flag(help: .hidden)
    var exitAfterFirstFrame = false

    /// For benchmarks: the mock parties answer at once instead of after human-visible delays.
    @Flag(help: .hidden)
    var instant = false

    func run() throws {
        setlocale(LC_ALL, "")
        guard isatty(0) == 1, isatty(1) == 1 else {
            Console.fail("needs an interactive terminal (stdin and stdout must be a TTY); `iapsim state` prints the data without one", code: 2)
        }
        let products = try loadCatalog()
        let directory = data.lockedDirectory()

        let timers = TimerQueue(speed: speed)
        let parties: Parties
        let latency = instant ? Parties.Latency(store: .init(products: 0, payment: 0), backend: .init(order: 0, verify: 0)) : Parties.Latency()
        do { parties = try Parties.open(in: directory, catalog: products, scheduler: timers, latency: latency) } catch { Console.fail("\(error)") }
        for fault in faults { parties.arm(fault) }

        var state = AppState(lang: lang, serialPurchases: !parallel, now: timers.now)
        state.faults = Set(faults)
        let runtime = AppRuntime(state: state, parties: parties, timers: timers)

        let terminal: TerminalSession
        do {
            terminal = try TerminalSession(monochrome: !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty)
        } catch {
            Console.fail("\(error)")
        }
        let theme: Theme = (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty ? .color : .monochrome
        runtime.start(user: user)
        MainLoop(runtime: runtime, terminal: terminal, theme: theme, exitAfterFirstFrame: exitAfterFirstFrame).run()
        terminal.close()
    }

    private func loadCatalog() throws -> [Product] {
        guard let path = catalog ?? DefaultCatalog.path else { Console.fail("the shipped catalog is missing beside the binary") }
        do {
            return try CatalogLoader.load(path: path)
        } catch {
            Console.fail("bad catalog: \(error)")
        }
    }
}

/// Keys and timers in, frames out, until the app quits or the terminal goes away.
struct MainLoop {
    let runtime: AppRuntime
    let terminal: TerminalSession
    let theme: Theme
    let exitAfterFirstFrame: Bool

    func run() {
        while true {
            runtime.timers.runDue()
            runtime.refreshClock()
            let size = terminal.size
            terminal.draw(Renderer.render(runtime.state, width: size.width, height: size.height, theme: theme))
            if runtime.state.quitting { return }
            if exitAfterFirstFrame, runtime.state.productsStatus == .loaded { return }
            let untilNext = runtime.timers.nextDue.map { runtime.timers.wallSeconds(until: $0) } ?? 1
            switch terminal.nextEvent(timeout: Int32(max(0, min(untilNext, 1)) * 1000)) {
            case let .key(key): runtime.send(.key(key))
            case .hangup: return
            case .resize, nil: break
            }
        }
    }
}
