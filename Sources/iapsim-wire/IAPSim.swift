import ArgumentParser
import Foundation
import IAPApp
import IAPCore
import IAPUI
import LaunchOptions
import Launcher
import StoreServer
import WireLauncher

@main
struct IAPSim: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "iapsim",
        abstract: "The iOS In-App Purchase client flow in a terminal, against a local mock App Store and backend.",
        version: "0.1.0",
        subcommands: [Run.self, Play.self, ScenariosCommand.self, StateCommand.self, FaultsCommand.self, ResetCommand.self, GalleryCommand.self,
                      CatalogCommand.self, ServeCommand.self, KeysCommand.self, CertsCommand.self, ReceiptCommand.self],
        defaultSubcommand: Run.self
    )

    /// ArgumentParser's own main, except that a mistake is said in one line, `iapsim: …`, as every other error is,
    /// and that a plain launch skips ArgumentParser (`LaunchSettings(plain:)`).
    static func main() {
        HTTPExchange.keepLoopbackDirect()
        WireParts.make = { LiveWire() }
        do {
            let arguments = PortNumber.withServePort(Array(CommandLine.arguments.dropFirst()))
            if let plain = LaunchSettings(plain: arguments) {
                try plain.launch()
                return
            }
            // ArgumentParser answers help for a command it does not know with the top-level help, as a success.
            if arguments.count > 1, arguments[0] == "help", !arguments[1].hasPrefix("-"), arguments[1] != "help", command(named: arguments[1]) == nil {
                Console.fail("no command \"\(arguments[1])\"; iapsim --help lists them", code: Console.usageFailure)
            }
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .success || error is ExitCode { exit(withError: error) }
            let message = message(for: error).split(whereSeparator: \.isNewline).first.map(String.init) ?? "\(error)"
            if let plain = plainly(message) { Console.fail(plain, code: code.rawValue) }
            guard !(error is CommandLineError) else { Console.fail(message, code: code.rawValue) }
            let given = CommandLine.arguments.dropFirst().first.flatMap(command(named:))
            // A catalog file where an option was expected: how to give it, to a command that takes one (the app's run too).
            if let file = message.firstMatch(of: #/^Unexpected argument '(.+\.(?:storekit|json))'$/#)?.output.1,
               (given ?? Run.self).helpMessage().contains("--catalog ") {
                Console.fail("a catalog is given as --catalog \(file)", code: code.rawValue)
            }
            // Said as iapsim's own messages are (lower case), pointing to the help of the command it was given to.
            let help = given.map { "iapsim help \($0._commandName) lists its options" } ?? "iapsim --help lists the options"
            Console.fail(message.prefix(1).lowercased() + message.dropFirst() + " (\(help))", code: code.rawValue)
        }
    }

    private static func command(named name: String) -> ParsableCommand.Type? {
        configuration.subcommands.first { $0._commandName == name }
    }

    /// ArgumentParser frames a value it could not take ("The value 'X' is invalid for '--option <v>': why", or "…
    /// Please provide one of 'a' and 'b'.", or none: "Missing value for '--option <v>'"); iapsim says the option and
    /// why, as its own checks do, once.
    static func plainly(_ message: String) -> String? {
        if let missing = message.firstMatch(of: #/^Missing value for '((--[\w-]+)[^']*)'$/#) {
            return "\(missing.output.2) needs a value: \(missing.output.1)"
        }
        guard let match = message.firstMatch(of: #/^The value '(.*)' is invalid for '(--[\w-]+)[^']*'(?:: (.*)|\. Please provide one of (.*)\.)$/#)
        else { return nil }
        let (_, value, option, why, values) = match.output
        if let why { return why.hasPrefix(option) ? String(why) : "\(option): \(why)" }
        guard let values else { return nil }
        var choices = values.replacingOccurrences(of: "'", with: "")
        if let and = choices.range(of: " and ", options: .backwards) { choices.replaceSubrange(and, with: " or ") }
        return "\(option): \"\(value)\" is not one of its values; give \(choices)"
    }
}

struct StateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "state", abstract: "Print what each party holds, as JSON.")

    @OptionGroup var data: DataOptions
    /// Which products are consumables and subscriptions: what `owned` leaves out of the credits.
    @OptionGroup var catalog: CatalogOption

    func run() throws {
        let directory = data.existingDirectory()
        do {
            print(try StateReport.json(for: directory, catalog: catalog.load()) { Console.warn($0) })
        } catch {
            Console.fail(error)
        }
    }
}

struct FaultsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "faults", abstract: "List every fault --fault can arm.")

    @Flag(help: "Print the list as JSON: [{\"name\", \"party\", \"summary\", \"value\", \"default\"}].")
    var json = false

    private struct Listed: Encodable {
        let name: String
        let party: String
        let summary: String
        let value: String?
        let `default`: String?
    }

    func run() throws {
        if json {
            print(try JSONText.encode(Fault.allCases.map {
                Listed(name: $0.rawValue, party: $0.party.rawValue, summary: $0.summary.en, value: $0.valueHelp, default: $0.defaultValue)
            }))
            return
        }
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
        commandName: "reset", abstract: "Clear every party's data, the store's unfinished queue included.",
        discussion: "The store's keys go with it: the next launch makes a new API key, shared secret and root certificate, so fetch them again (keys, certs) for a server you pointed at it.")

    @OptionGroup var data: DataOptions

    func run() throws {
        // A folder with nothing to clear is left as it was: not even a lock file is made in it.
        guard data.existingDirectory().holdsData else { return print("nothing to clear in \(data.directory.path)") }
        let directory = data.lockedDirectory()
        do {
            let removed = try directory.removeAll()
            Console.keepWhatWasMade()
            print("cleared \(directory.path): \(removed.joined(separator: ", "))")
        } catch {
            Console.fail(error)
        }
    }
}
