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

    @Option(help: "Screen width for expectations and snapshots.")
    var width = 80

    @Option(help: "Screen height for expectations and snapshots.")
    var height = 24

    @OptionGroup var catalog: CatalogOption

    func run() throws {
        let products = catalog.load()
        for file in files {
            let script: Script
            do { script = try Script.load(path: Scenarios.path(of: file)) } catch { Console.fail("\(error)") }
            print("▶ \(script.name)  (\(file))")
            let temporary = dataDir == nil
            let directory = DataDirectory(path: dataDir ?? NSTemporaryDirectory() + "iapsim-play-\(UUID().uuidString)")
            defer { if temporary { try? FileManager.default.removeItem(atPath: directory.path) } }
            var setup = ScriptPlayer.Setup(directory: directory, catalog: products, options: AppState(lang: lang))
            setup.width = width
            setup.height = height
            setup.snapshots = snapshots
            let outcome: ScriptPlayer.Outcome
            do { outcome = try ScriptPlayer(setup).play(script) } catch { Console.fail("\(file): \(error)") }
            switch outcome {
            case .passed:
                print("✔ \(script.name): every expectation met\n")
            case let .failed(line, message):
                print("✘ \(script.name): \(file):\(line): \(message)\n")
                throw ExitCode(1)
            }
        }
    }
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
        let script = try Script.load(path: path(of: name))
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

    /// A path as given, else the shipped scenario of that name.
    static func path(of name: String) -> String {
        if FileManager.default.fileExists(atPath: name) { return name }
        guard let folder = ShippedAssets.scenariosPath else { return name }
        let shipped = folder + "/" + name + (name.hasSuffix(".iapsim") ? "" : ".iapsim")
        return FileManager.default.fileExists(atPath: shipped) ? shipped : name
    }
}
