import ArgumentParser
import Foundation
import IAPApp
import IAPCore
import IAPUI

@main
struct IAPSim: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "iapsim",
        abstract: "The iOS In-App Purchase client flow in a terminal, against a local mock App Store and backend.",
        version: "0.1.0",
        subcommands: [Run.self, Play.self, ScenariosCommand.self, StateCommand.self, FaultsCommand.self, ResetCommand.self, GalleryCommand.self, BenchEngine.self],
        defaultSubcommand: Run.self
    )

    /// ArgumentParser's own main, except that a mistake is said in one line, `iapsim: …`, as every other error is.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .success || error is ExitCode { exit(withError: error) }
            let message = message(for: error).split(whereSeparator: \.isNewline).first.map(String.init) ?? "\(error)"
            Console.fail(message + (error is CommandLineError ? "" : " (iapsim --help lists the options)"), code: code.rawValue)
        }
    }
}

/// A mistake on the command line found while running, already said in full.
struct CommandLineError: Error, CustomStringConvertible {
    let description: String
}

/// Options every command that touches the data shares.
struct DataOptions: ParsableArguments {
    @Option(name: .customLong("data-dir"), help: "Where the store, backend and client keep their databases (default: $XDG_DATA_HOME/iapsim, else ~/.local/share/iapsim).")
    var dataDir: String?

    var directory: DataDirectory { DataDirectory(path: dataDir ?? DataDirectory.defaultPath()) }

    /// The directory, created if needed and locked for this process; says why and exits when it cannot be used or
    /// another iapsim holds it. Until `Console.keepWhatWasMade()`, a failure removes what this created.
    func lockedDirectory() -> DataDirectory {
        let directory = directory
        let claim: DataDirectoryClaim?
        do { claim = try directory.claim() } catch { Console.fail("\(error)") }
        guard let claim else { Console.fail("another iapsim is using \(directory.path); quit it first") }
        Console.undoOnFailure = claim.undo
        return directory
    }

    /// An existing data directory (state, reset), or a clear failure.
    func existingDirectory() -> DataDirectory {
        do { try directory.checkExisting() } catch { Console.fail("\(error)") }
        return directory
    }
}

struct StateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "state", abstract: "Print what each party holds, as JSON.")

    @OptionGroup var data: DataOptions

    func run() throws {
        do {
            print(try StateReport.json(for: data.existingDirectory()))
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
            print("  " + name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + fault.summary.en
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
        _ = data.existingDirectory()
        let directory = data.lockedDirectory()
        Console.keepWhatWasMade()
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
    /// Undoes what a command created before it failed (a data directory, its lock file); nil once the command is under way.
    nonisolated(unsafe) static var undoOnFailure: (() -> Void)?

    static func fail(_ message: String, code: Int32 = 1) -> Never {
        undoOnFailure?()
        FileHandle.standardError.write(Data("iapsim: \(message)\n".utf8))
        Foundation.exit(code)
    }

    /// The command is under way: what it created stays, whatever happens next.
    static func keepWhatWasMade() {
        undoOnFailure = nil
    }
}

/// A number option checked at the edge: finite and in range, the range in the message.
func number(_ text: String, option: String, in range: ClosedRange<Double>, whole: Bool = false) throws -> Double {
    let shown = whole ? "\(Int(range.lowerBound)) to \(Int(range.upperBound))" : "\(range.lowerBound.formatted()) to \(range.upperBound.formatted())"
    guard let value = Double(text), value.isFinite, range.contains(value), !whole || value.rounded() == value else {
        throw CommandLineError(description: "\(option) takes \(whole ? "a whole number " : "")\(shown), not \"\(text)\"")
    }
    return value
}

extension Double {
    /// 0.1, 1000: no trailing ".0" for whole numbers.
    func formatted() -> String {
        rounded() == self && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}
