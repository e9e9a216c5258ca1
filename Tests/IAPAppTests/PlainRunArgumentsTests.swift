import ArgumentParser
import IAPCore
import LaunchOptions
import Launcher
import Testing

/// A plain launch skips ArgumentParser (`LaunchSettings(plain:)`): what it accepts must read exactly as ArgumentParser
/// reads it, and everything else must be left to ArgumentParser.
@Suite("Plain run arguments: read as ArgumentParser reads them, or not at all")
struct PlainRunArgumentsTests {
    private struct Reading: Equatable {
        let dataDir: String?, user: String?, lang: Language, catalog: String?, scenario: String?, parallel: Bool, speed: Double?
        let faults: [String]
        let serverAPI: Bool

        init(_ options: LaunchSettings) {
            (dataDir, user, lang, catalog) = (options.dataDir, options.user, options.lang, options.catalog)
            (scenario, parallel, speed) = (options.scenario, options.parallel, options.speed)
            faults = options.faults.map { "\($0.fault.rawValue)=\($0.arm.value ?? "")\($0.arm.once ? ":once" : "")" }
            serverAPI = options.serverAPI
        }
    }

    @Test("what a plain launch reads, ArgumentParser reads the same", arguments: [
        [],
        ["run"],
        ["--user", "alice"],
        ["--data-dir", "/tmp/x y", "--user", "José", "--lang", "zh"],
        ["--data-dir=/tmp/a=b", "--user=alice", "--lang=en", "--speed=2.5"],
        ["run", "--catalog", "my.storekit", "--parallel", "--speed", "1000"],
        ["--fault", "backend-down", "--fault", "verify-status=21007:once", "--user", "run"],
        ["--scenario", "restore-flow", "--speed", "0.1"],
        ["--parallel", "--data-dir", "play"],
        ["--server-api", "--user", "alice", "--parallel"],
    ])
    func same(_ arguments: [String]) throws {
        let plain = try #require(LaunchSettings(plain: arguments))
        let parsed = try RunOptions.parse(arguments.first == "run" ? Array(arguments.dropFirst()) : arguments)
        #expect(Reading(plain) == Reading(parsed.settings))
    }

    @Test("anything else is left to ArgumentParser", arguments: [
        ["--help"], ["-h"], ["--version"], ["help"], ["play", "x.iapsim"], ["state"], ["run", "run"],
        ["--user"], ["--user", ""], ["--user="], ["--user", "-x"], ["--user", "--lang", "en"], ["--user", "a", "--user", "b"],
        ["--lang", "fr"], ["--speed", "0"], ["--speed", "fast"], ["--speed", "-1"], ["--fault", "no-such-fault"],
        ["--parallel", "--parallel"], ["--parallel=true"], ["--server-api", "--server-api"], ["--server-api=1"], ["--unknown", "x"], ["--", "--user", "a"], ["alice"], ["-u", "alice"],
    ])
    func declined(_ arguments: [String]) {
        #expect(LaunchSettings(plain: arguments) == nil)
    }
}
