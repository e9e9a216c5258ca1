import ArgumentParser
import Foundation
import IAPApp
import IAPCore
import IAPUI
import LaunchOptions
import Launcher
import StoreServer
import WireLauncher
import Terminal

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve Apple's verifyReceipt, the App Store Server API and the built-in backend, on the data directory's store, on 127.0.0.1.",
        discussion: """
            Routes: /verifyReceipt and /sandbox/verifyReceipt; /inApps/v1 and /inApps/v2 (the App Store Server API, with a \
            bearer token: iapsim keys); /backend/v1 (the built-in backend, by docs/backend-contract.yaml).
            Runs until interrupted (Ctrl-C). While the app runs on the same data directory, use its --serve instead.
            """)

    @OptionGroup var data: DataOptions
    @OptionGroup var catalog: CatalogOption

    @Option(parsing: .unconditional, help: "The port on 127.0.0.1 (\(PortNumber.standard) when left out; 0: any free port).", transform: { try PortNumber.parse($0) })
    var port: Int = PortNumber.standard

    @Option(name: .customLong("fault"), help: ArgumentHelp("Arm a fault (repeatable); the backend's act on every request, notification-… on what --notify receives.", valueName: "name[=value][:once]"),
            completion: .list(Fault.allCases.map(\.rawValue)), transform: FaultSpec.init)
    var faults: [FaultSpec] = []

    @Option(help: ArgumentHelp("POST every App Store Server Notification (V2, signed) to this server, retried as Apple does.",
                               valueName: "url"))
    var notify: String?

    func run() throws {
        let notify = NotifyURL.checked(notify)
        let products = catalog.load()
        PortNumber.failUnlessFree(port)
        let directory = data.lockedDirectory()
        let timers = TimerQueue(speed: 1)
        let parties: Parties
        let runner: ServerRunner
        var stopSending: () -> Void = {}
        do {
            parties = try Parties.open(in: directory, catalog: products, scheduler: timers, latency: .instant, faults: FaultSpec.armed(faults))
            if let known = parties.store.lastKnownTime { timers.jump(to: known) }
            runner = try ServerRunner(parties: parties, catalog: products, now: { timers.now })
            if let notify {
                parties.store.database.outbox.goesOut = true
                let sender = try NotificationSender(url: notify, store: parties.store, scheduler: timers, thread: runner.thread,
                                                    onAttempt: { print("iapsim: " + NotificationDelivery($0).attemptWords.en); fflush(nil) })
                runner.served.onTestNotification = { sender.sendTest(uuid: $0) }
                stopSending = sender.stop
            }
        } catch {
            Console.fail(error, file: directory.path)
        }
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
                // Serving: from here on, what the command made (the data folder, its files) is kept.
                Console.keepWhatWasMade()
                print("iapsim: serving \(Console.oneLine(directory.path)) on http://127.0.0.1:\(port) (verifyReceipt, /inApps/...); Ctrl-C stops")
                fflush(nil)
            default:
                break
            }
            let untilNext = timers.nextDue.map { timers.wallSeconds(until: $0) } ?? 0.25
            runner.thread.runJobs(waitingUpTo: max(0, min(untilNext, 0.25)))
            timers.runDue()
        }
        runner.stop()
        stopSending()
        do { try parties.close() } catch { Console.fail(error) }
        // A signal is serve's way to quit: its files are closed as the app's quit closes them, and recorded so.
        directory.recordClosedCleanly(directory)
        // Stopped by a signal: the status says which (130 for SIGINT, 143 for SIGTERM), as for the app.
        if let signal = QuitSignals.caught { Foundation.exit(128 + signal) }
    }
}
