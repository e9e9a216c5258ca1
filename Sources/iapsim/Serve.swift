import ArgumentParser
import Foundation
import IAPApp
import IAPCore
import Launcher
import Terminal

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve Apple's verifyReceipt and App Store Server API, on the data directory's store, on 127.0.0.1.",
        discussion: "Runs until interrupted (Ctrl-C). While the app runs on the same data directory, use its --serve instead.")

    @OptionGroup var data: DataOptions
    @OptionGroup var catalog: CatalogOption

    @Option(help: "The port on 127.0.0.1 (0: any free port).", transform: { try PortNumber.parse($0) })
    var port: Int = PortNumber.standard

    @Option(name: .customLong("fault"), help: ArgumentHelp("Arm a fault (repeatable); the backend's act on every request.", valueName: "name[=value][:once]"),
            completion: .list(Fault.allCases.map(\.rawValue)), transform: FaultSpec.init)
    var faults: [FaultSpec] = []

    func run() throws {
        let products = catalog.load()
        let directory = data.lockedDirectory()
        let timers = TimerQueue(speed: 1)
        let parties: Parties
        let runner: ServerRunner
        do {
            parties = try Parties.open(in: directory, catalog: products, scheduler: timers, latency: .instant, faults: FaultSpec.armed(faults))
            if let known = parties.store.lastKnownTime { timers.jump(to: known) }
            runner = try ServerRunner(parties: parties, catalog: products, now: { timers.now })
        } catch {
            Console.fail("\(error)")
        }
        Console.keepWhatWasMade()
        QuitSignals.catchThem()
        runner.start(port: port)
        var announced = false
        while QuitSignals.caught == nil {
            switch runner.state {
            case let .failed(reason):
                try? parties.close()
                Console.fail(reason)
            case let .serving(port) where !announced:
                announced = true
                print("iapsim: serving \(directory.path) on http://127.0.0.1:\(port) (verifyReceipt, /inApps/...); Ctrl-C stops")
                fflush(nil)
            default:
                break
            }
            let untilNext = timers.nextDue.map { timers.wallSeconds(until: $0) } ?? 0.25
            runner.thread.runJobs(waitingUpTo: max(0, min(untilNext, 0.25)))
            timers.runDue()
        }
        runner.stop()
        do { try parties.close() } catch { Console.fail("\(error)") }
    }
}
