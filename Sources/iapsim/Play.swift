import ArgumentParser
import Foundation
import IAPApp
import IAPCore
import ShippedAssets

struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Run QA scripts headlessly on a virtual clock; exits non-zero at the first failed expectation.",
        discussion: "FILE is a script path or the name of a shipped scenario (`iapsim scenarios` lists them).")

    @Argument(help: "Scripts to run, one after the other.")
    var files: [String]

    @Option(name: .customLong("data-dir"), help: "Run on this data directory (default: a fresh temporary one per script, removed afterwards).")
    var dataDir: String?

    @Option(help: "Write `snapshot NAME` screens to DIR/NAME.txt (default: print them in the transcript).")
    var snapshots: String?

    @Option(help: "Language: en or zh.")
    var lang: Language = .en

    @Option(parsing: .unconditional, help: "Screen width for expectations and snapshots, 64 to 1000.",
            transform: { Int(try number($0, option: "--width", in: 64...1000, whole: true)) })
    var width = 80

    @Option(parsing: .unconditional, help: "Screen height for expectations and snapshots, 18 to 1000.",
            transform: { Int(try number($0, option: "--height", in: 18...1000, whole: true)) })
    var height = 24

    @OptionGroup var catalog: CatalogOption

    func run() throws {
        let products = catalog.load()
        var scripts: [(String, Script)] = []
        for file in files {
            do { scripts.append((file, try Script.load(path: Scenarios.path(of: file)))) } catch { Console.fail("\(error)") }
        }
        if let dataDir {
            // The same lock the app and `reset` take: two writers on one directory would corrupt each other's story.
            let claim: DataDirectoryClaim?
            do { claim = try DataDirectory(path: dataDir).claim() } catch { Console.fail("\(error)") }
            guard claim != nil else { Console.fail("another iapsim is using \(dataDir); quit it first") }
            Console.keepWhatWasMade()
        }
        for (file, script) in scripts {
            say("▶ \(script.name)  (\(file))")
            let temporary = dataDir == nil
            let directory = DataDirectory(path: dataDir ?? NSTemporaryDirectory() + "iapsim-play-\(UUID().uuidString)")
            defer { if temporary { try? FileManager.default.removeItem(atPath: directory.path) } }
            var setup = ScriptPlayer.Setup(directory: directory, catalog: products, options: AppState(lang: lang))
            setup.width = width
            setup.height = height
            setup.snapshots = snapshots
            let outcome: ScriptPlayer.Outcome
            do { outcome = try ScriptPlayer(setup, output: say).play(script) } catch { Console.fail("\(file): \(error)") }
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

    func run() {
        for scenario in Scenarios.all() {
            print(scenario.name)
            for key in ["shows", "from", "expect"] {
                if let value = scenario.header[key] { print("  \(key.padding(toLength: 7, withPad: " ", startingAt: 0)) \(value)") }
            }
        }
        if let path = ShippedAssets.scenariosPath { print("\nScripts: \(path)  (copy one, edit it, run it with `iapsim play FILE`)") }
    }
}

/// The shipped scenario scripts.
enum Scenarios {
    static func all() -> [Script] {
        guard let folder = ShippedAssets.scenariosPath,
              let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        return names.filter { $0.hasSuffix(".iapsim") }.sorted().compactMap { try? Script.load(path: folder + "/" + $0) }
    }

    /// What the scenario list shows; read only when it is opened.
    static var list: [ScenarioInfo] {
        all().map { ScenarioInfo(name: $0.name, shows: Localized(en: $0.header["shows"] ?? "", zh: $0.header["shows.zh"] ?? $0.header["shows"] ?? "")) }
    }

    /// Plays the scenario up to its handover, headlessly, on its own data under `data`, then hands the app over
    /// live, on a clock that goes on from where the script left it.
    static func setUp(_ name: String, under data: DataDirectory, catalog: [Product], options: AppState, speed: Double) throws -> AppSession {
        let script = try script(name)
        let directory = DataDirectory(path: data.path + "/scenarios/" + script.name)
        _ = try directory.removeAll()
        var setup = ScriptPlayer.Setup(directory: directory, catalog: catalog, options: options)
        setup.start = Date()
        setup.stopAtHandover = true
        let player = ScriptPlayer(setup) { _ in }
        if case let .failed(line, message) = try player.play(script) {
            throw ScriptError(file: script.name, line: line, message: message)
        }
        let prepared = player.session
        let session = try AppSession(directory: directory, catalog: catalog, options: options, faults: prepared?.parties.faults.armed ?? [],
                                     user: prepared?.state.user, clock: .live(speed: speed, start: prepared?.timers.now))
        session.scenarioSource = { list }
        return session
    }

    /// A path as given, else the shipped scenario of that name; a plain word that is neither is said to be so.
    static func path(of name: String) throws -> String {
        if FileManager.default.fileExists(atPath: name) || name.contains("/") || name.hasSuffix(".iapsim") { return name }
        if let folder = ShippedAssets.scenariosPath, FileManager.default.fileExists(atPath: folder + "/" + name + ".iapsim") {
            return folder + "/" + name + ".iapsim"
        }
        throw CommandLineError(description: "no shipped scenario named \"\(name)\" and no such file; `iapsim scenarios` lists them")
    }

    /// A scenario's script, whose name, a folder under `DATA_DIR/scenarios/`, must be a plain one.
    static func script(_ name: String) throws -> Script {
        let script = try Script.load(path: path(of: name))
        guard Script.isPlainName(script.name) else {
            throw CommandLineError(description: "\(name): the scenario name \"\(script.name)\" is not a plain name; name the file or its `# name:` with letters, digits, - _ and .")
        }
        return script
    }
}
