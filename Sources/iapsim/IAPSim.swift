import ArgumentParser
import Foundation
import IAPApp
import IAPCore

@main
struct IAPSim: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "iapsim",
        abstract: "The iOS In-App Purchase client flow in a terminal, against a local mock App Store and backend.",
        version: "0.1.0",
        subcommands: [Run.self, Play.self, ScenariosCommand.self, StateCommand.self, FaultsCommand.self, ResetCommand.self, GalleryCommand.self, BenchEngine.self],
        defaultSubcommand: Run.self
    )
}

/// Options every command that touches the data shares.
struct DataOptions: ParsableArguments {
    @Option(name: .customLong("data-dir"), help: "Where the store, backend and client keep their databases (default: $XDG_DATA_HOME/iapsim, else ~/.local/share/iapsim).")
    var dataDir: String?

    var directory: DataDirectory { DataDirectory(path: dataDir ?? DataDirectory.defaultPath()) }

    /// The directory, locked for this process; says why and exits when another iapsim holds it.
    func lockedDirectory() -> DataDirectory {
        let directory = directory
        let lock: Int32?
        do { lock = try directory.lock() } catch { Console.fail("cannot use data directory \(directory.path): \(error)") }
        guard lock != nil else { Console.fail("another iapsim is using \(directory.path); quit it first") }
        return directory
    }
}

struct StateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "state", abstract: "Print what each party holds, as JSON.")

    @OptionGroup var data: DataOptions

    func run() throws {
        do {
            print(try StateReport.json(for: data.directory))
        } catch {
            Console.fail("\(error)")
        }
    }
}

struct FaultsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "faults", abstract: "List every fault --fault can arm.")

    func run() {
        let names = Fault.allCases.map { fault in fault.rawValue + (fault.defaultValue.map { "=\($0)" } ?? "") }
        let width = names.map(\.count).max() ?? 0
        var party: Fault.Party?
        for (fault, name) in zip(Fault.allCases, names) {
            if fault.party != party {
                party = fault.party
                print((party == .store ? "" : "\n") + "\(fault.party.rawValue):")
            }
            print("  " + name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + fault.summary
                  + (fault.valueHelp.map { " (VALUE: \($0))" } ?? ""))
        }
        print("\nArm with --fault NAME[=VALUE] (sticky) or NAME[=VALUE]:once (gone after it fires once);")
        print("in the app, F opens the fault panel; in a script, `fault NAME[=VALUE][:once]` / `clear NAME`.")
    }
}

struct ResetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset", abstract: "Clear every party's data, the store's unfinished queue included.")

    @OptionGroup var data: DataOptions

    func run() throws {
        let directory = data.lockedDirectory()
        do {
            let removed = try directory.removeAll()
            print(removed.isEmpty ? "nothing to clear in \(directory.path)" : "cleared \(directory.path): \(removed.joined(separator: ", "))")
        } catch {
            Console.fail("\(error)")
        }
    }
}

extension Language: ExpressibleByArgument {}
/// `--fault NAME[=VALUE][:once]`.
struct FaultSpec {
    let fault: Fault
    let arm: FaultArm

    init(_ argument: String) throws {
        (fault, arm) = try ArmedFaults.parse(argument)
    }

    static func armed(_ specs: [FaultSpec]) -> ArmedFaults {
        var armed: ArmedFaults = []
        for spec in specs { armed.insert(spec.fault, spec.arm) }
        return armed
    }
}

enum Console {
    static func fail(_ message: String, code: Int32 = 1) -> Never {
        FileHandle.standardError.write(Data("iapsim: \(message)\n".utf8))
        Foundation.exit(code)
    }
}
