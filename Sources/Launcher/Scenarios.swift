import Foundation
import IAPApp
import IAPCore
import ShippedAssets

/// The shipped scenario scripts.
public enum Scenarios {
    public static func all() -> [Script] {
        guard let folder = ShippedAssets.scenariosPath else { return [] }
        return names.compactMap { try? Script.load(path: folder + "/" + $0 + ".iapsim") }
    }

    /// The names `--scenario` takes: the scripts' file names (a test holds each script's own name to its file's).
    /// Read once, from the folder alone: ArgumentParser makes `RunOptions`, whose completion lists them, several
    /// times for every command it parses, and parsing every script each time was most of a command's start.
    public static let names: [String] = {
        guard let folder = ShippedAssets.scenariosPath,
              let files = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        return files.filter { $0.hasSuffix(".iapsim") }.map { String($0.dropLast(".iapsim".count)) }.sorted()
    }()

    /// What the scenario list shows; read only when it is opened.
    public static var list: [ScenarioInfo] {
        all().map { ScenarioInfo(name: $0.name, shows: Localized(en: $0.header["shows"] ?? "", zh: $0.header["shows.zh"] ?? $0.header["shows"] ?? "")) }
    }

    /// Plays the scenario up to its handover, headlessly, on its own data under `data`, then hands the app over
    /// live, on a clock that goes on from where the script left it.
    public static func setUp(_ name: String, under data: DataDirectory, catalog: [Product], options: AppState, speed: Double) throws -> AppSession {
        let script = try script(name)
        let directory = DataDirectory(path: data.path + "/scenarios/" + script.name)
        _ = try directory.removeAll()
        // A script is written in English (its `expect screen` lines) unless it says `lang zh`, as `iapsim play` reads
        // it by default; the app's language is the handover's.
        var played = options
        played.lang = .en
        var setup = ScriptPlayer.Setup(directory: directory, catalog: catalog, options: played)
        setup.start = Date()
        setup.stopAtHandover = true
        let player = ScriptPlayer(setup) { _ in }
        if case let .failed(line, message) = try player.play(script) {
            throw ScriptError(file: script.name, line: line, message: message)
        }
        let prepared = player.session
        var options = options
        // The scenario list at this scenario's row when it was not started from there (`--scenario NAME`).
        let listed = ScenariosPanel().stateId
        if options.panelRows[listed] == nil { options.panelRows[listed] = names.firstIndex(of: script.name) }
        if let mode = script.storeKit { options.storeKit = mode }
        if script.serverAPIBackend { options.serverAPIBackend = true }
        // The paywall as the script left it: the steps after the handover, read by hand, mean that product and offers.
        if let prepared {
            // The cursor too, once the new session's product list loads (a login starts at the top).
            options.selectOnLoad = prepared.state.selectedProduct?.id
            options.offerChoices = prepared.state.offerChoices
            options.monthlyPlanChoices = prepared.state.monthlyPlanChoices
        }
        // On the device the script left the app on (`device NAME`).
        let session = try AppSession(directory: prepared?.directory ?? directory, catalog: player.catalog, options: options, faults: prepared?.parties.faults.armed ?? [],
                                     user: prepared?.state.user, clock: .live(speed: speed, start: prepared?.timers.now))
        return session
    }

    /// A path as given, else the shipped scenario of that name; a plain word that is neither is said to be so.
    public static func path(of name: String) throws -> String {
        if FileManager.default.fileExists(atPath: name) || name.contains("/") || name.hasSuffix(".iapsim") { return name }
        if let folder = ShippedAssets.scenariosPath, FileManager.default.fileExists(atPath: folder + "/" + name + ".iapsim") {
            return folder + "/" + name + ".iapsim"
        }
        throw CommandLineError(description: "no shipped scenario named \"\(name)\" and no such file; `iapsim scenarios` lists them")
    }

    /// A scenario's script, whose name, a folder under `DATA_DIR/scenarios/`, must be a plain one.
    public static func script(_ name: String) throws -> Script {
        let script = try Script.load(path: path(of: name))
        guard Script.isPlainName(script.name) else {
            throw CommandLineError(description: "\(name): the scenario name \"\(script.name)\" is not a plain name; name the file or its `# name:` with letters, digits, - _ and .")
        }
        return script
    }
}
