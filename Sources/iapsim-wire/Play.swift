import ArgumentParser
import Foundation
import IAPApp
import IAPCore
import LaunchOptions
import Launcher
import ShippedAssets

struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Run QA scripts headlessly on a virtual clock; exits non-zero at the first failed expectation.",
        discussion: "FILE is a script path or the name of a shipped scenario (`iapsim scenarios` lists them).")

    @Argument(help: "Scripts to run, one after the other.", completion: .file(extensions: ["iapsim"]))
    var files: [String]

    @Option(name: .customLong("data-dir"), help: "Run on this data directory (default: a fresh temporary one per script, removed afterwards).",
            completion: .directory)
    var dataDir: String?

    @Option(help: "Write `snapshot NAME` screens to DIR/NAME.txt (default: print them in the transcript).", completion: .directory)
    var snapshots: String?

    @Option(help: "Language: en or zh.")
    var lang: Language = .en

    @Option(parsing: .unconditional, help: "Screen width for expectations and snapshots, 64 to 1000.",
            transform: { Int(try number($0, option: "--width", in: 64...1000, whole: true)) })
    var width = 80

    @Option(parsing: .unconditional, help: "Screen height for expectations and snapshots, 18 to 1000.",
            transform: { Int(try number($0, option: "--height", in: 18...1000, whole: true)) })
    var height = 24

    @Option(name: .customLong("storekit"),
            help: ArgumentHelp("The StoreKit the client is written against, 1 (the default) or 2, for scripts without a `# storekit:` line.", valueName: "1|2"),
            completion: .list(["1", "2"]))
    var storeKit: String?

    @Flag(name: .customLong("server-api"), help: "Run the built-in backend as a modern server (as run's --server-api), for scripts without a `# backend:` line.")
    var serverAPI = false

    @OptionGroup var catalog: CatalogOption

    func run() throws {
        // Checked before any script runs: a bad --snapshots would otherwise be found at the first snapshot.
        if let snapshots { do { try DataDirectory(path: snapshots).checkPath(option: "--snapshots") } catch { Console.fail(error) } }
        // What the catalog could not use is said on stderr, as at the app's launch: a skipped product is never silent.
        let imported = CatalogFile.imported(catalog.catalog)
        CatalogFile.warn(imported, path: catalog.catalog)
        let products = imported.products
        var mode = StoreKitMode.one
        if let storeKit {
            guard let given = StoreKitMode(argument: storeKit) else { Console.fail("--storekit: \(StoreKitMode.notAMode(storeKit))", code: Console.usageFailure) }
            mode = given
        }
        var scripts: [(String, Script)] = []
        for file in files {
            do {
                let path = try Scenarios.path(of: file)
                let script = try Script.load(path: path)
                try script.check(against: products, file: path)
                scripts.append((file, script))
            } catch { Console.fail(error) }
        }
        if let dataDir {
            // The same lock the app and `reset` take: two writers on one directory would corrupt each other's story.
            let claim: DataDirectoryClaim?
            do { claim = try DataDirectory(path: dataDir).claim() } catch { Console.fail(error) }
            guard claim != nil else { Console.fail("another iapsim is using \(dataDir); quit it first") }
            Console.undoOnFailure = claim?.undo
        }
        for (file, script) in scripts {
            say("▶ \(script.name)  (\(file))")
            let temporary = dataDir == nil
            let directory = DataDirectory(path: dataDir ?? NSTemporaryDirectory() + "iapsim-play-\(UUID().uuidString)")
            defer { if temporary { try? FileManager.default.removeItem(atPath: directory.path) } }
            var options = AppState(lang: lang, storeKit: mode)
            options.serverAPIBackend = serverAPI
            var setup = ScriptPlayer.Setup(directory: directory, catalog: products, options: options)
            setup.width = width
            setup.height = height
            setup.snapshots = snapshots
            setup.scenarioScript = Scenarios.script
            setup.scenarios = { Scenarios.list }
            let outcome: ScriptPlayer.Outcome
            do { outcome = try ScriptPlayer(setup, output: say).play(script) } catch { Console.fail("\(file): \(Console.describe(error, file: dataDir))") }
            // A script that ran, passed or not, leaves its data to look at; one that could not run leaves nothing.
            Console.keepWhatWasMade()
            switch outcome {
            case .passed:
                say("✔ \(script.name): every expectation met\n")
            case let .failed(line, message):
                say("✘ \(script.name): \(file):\(line): \(message)\n")
                throw ExitCode(1)
            }
        }
    }
}

/// The transcript goes out line by line, so a long run shows where it is (and a pipe sees it as it happens).
private func say(_ line: String) {
    print(line)
    fflush(nil)
}

struct ScenariosCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scenarios", abstract: "List the shipped scenarios: what each shows, where it comes from, how it should end.")

    @Flag(help: "Print the list as JSON: [{\"name\", \"shows\", \"from\", \"expect\"}].")
    var json = false

    private struct Listed: Encodable {
        let name: String
        let shows: String?
        let from: String?
        let expect: String?
    }

    func run() throws {
        if json {
            let listed = Scenarios.all().map { Listed(name: $0.name, shows: $0.header["shows"], from: $0.header["from"], expect: $0.header["expect"]) }
            print(try JSONText.encode(listed))
            return
        }
        for scenario in Scenarios.all() {
            print(scenario.name)
            for key in ["shows", "from", "expect"] {
                if let value = scenario.header[key] { print("  \(key.padding(toLength: 7, withPad: " ", startingAt: 0)) \(value)") }
            }
        }
        if let path = ShippedAssets.scenariosPath { print("\nScripts: \(path)  (copy one, edit it, run it with `iapsim play FILE`)") }
    }
}
