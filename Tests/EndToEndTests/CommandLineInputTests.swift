import Foundation
import Testing

/// The command line (issue 12, defects 1, 2, 4, 5, 6, 12, 13 and 15): every bad input gets one line,
/// `iapsim: …`, naming the thing and what to do, a non-zero status, and leaves nothing behind.
@Suite("Command line: one clear line for every bad input, nothing left behind")
struct CommandLineInputTests {
    /// Quotes a word for `sh`.
    func quoted(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// Runs iapsim with `arguments` on a terminal (through `script`), as a person would; answers status and output.
    func onTerminal(_ arguments: [String], in work: String, environment: String = "") async throws -> (Int32, String) {
        let command = environment + " " + ([builtBinary] + arguments).map(quoted).joined(separator: " ")
        let status = try await spawn(["timeout", "-s", "KILL", "20", "script", "-qec", command, "/dev/null"], output: work + "/out")
        return (status, (try? String(contentsOfFile: work + "/out", encoding: .utf8)) ?? "")
    }

    /// Runs iapsim without a terminal (headless commands).
    func headless(_ arguments: [String], in work: String) async throws -> (Int32, String) {
        let status = try await spawn([builtBinary] + arguments, output: work + "/out")
        return (status, (try? String(contentsOfFile: work + "/out", encoding: .utf8)) ?? "")
    }

    /// One line in iapsim's style, no Foundation dump, no usage screen.
    func oneClearLine(_ output: String, mentioning words: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let lines = output.split(whereSeparator: \.isNewline).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        #expect(lines.count == 1, "\(output)", sourceLocation: sourceLocation)
        #expect(output.hasPrefix("iapsim: "), "\(output)", sourceLocation: sourceLocation)
        for bad in ["NSCocoaErrorDomain", "Error Domain", "UserInfo", "Error:", "Usage:", "Missing value", "SQLite error"] {
            #expect(!output.contains(bad), "\(output)", sourceLocation: sourceLocation)
        }
        for word in words { #expect(output.contains(word), "\(output) lacks \(word)", sourceLocation: sourceLocation) }
    }

    func nothingCreated(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!FileManager.default.fileExists(atPath: path), "\(path) was created", sourceLocation: sourceLocation)
    }

    @Test("--speed must be a finite decimal number in range (found by QA: the hexadecimal 0x10 was taken)", arguments: ["inf", "nan", "1e308", "0", "-1", "-0.5", "abc", "1e-9", "0x10"])
    func speed(_ value: String) async throws {
        let work = try makeWorkDirectory()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let (status, output) = try await onTerminal(["--speed", value, "--data-dir", work + "/data"], in: work)
        #expect(status != 0)
        oneClearLine(output, mentioning: ["--speed", "0.1 to 1000"])
        nothingCreated(work + "/data")
    }

    @Test("--notify takes an http:// or https:// URL with a host, on the app and on serve",
          arguments: [["--notify", "ftp://127.0.0.1/n"], ["--notify", "http://"], ["--notify=127.0.0.1:9000"], ["serve", "--notify", "http:/x"]])
    func notify(_ arguments: [String]) async throws {
        let work = try makeWorkDirectory()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let (status, output) = try await onTerminal(arguments + ["--data-dir", work + "/data"], in: work)
        #expect(status == 64)
        oneClearLine(output, mentioning: ["iapsim: --notify: ", "give e.g. http://127.0.0.1:9000/notifications"])
        nothingCreated(work + "/data")
    }

    @Test("a port is 0 to 65535, said as such for a negative one too, on the app and on serve",
          arguments: [["serve", "--port", "-1"], ["--serve", "-1"], ["serve", "--port", "70000"], ["--serve", "http"]])
    func port(_ arguments: [String]) async throws {
        let work = try makeWorkDirectory()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let (status, output) = try await onTerminal(arguments + ["--data-dir", work + "/data"], in: work)
        #expect(status == 64)
        oneClearLine(output, mentioning: ["iapsim: ", "\"\(arguments.last!)\" is not a port; give 0 to 65535"])
        nothingCreated(work + "/data")
    }

    @Test("--storekit is 1 or 2, on the app and on play", arguments: [["--storekit", "3"], ["--storekit", "two"], ["play", "--storekit", "0", "x.iapsim"]])
    func storeKit(_ arguments: [String]) async throws {
        let work = try makeWorkDirectory()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let (status, output) = try await onTerminal(arguments + ["--data-dir", work + "/data"], in: work)
        #expect(status == 64)
        oneClearLine(output, mentioning: ["iapsim: --storekit: ", "is not a StoreKit version; give 1 or 2"])
        nothingCreated(work + "/data")
    }

    @Test("--fault values are finite numbers in range", arguments: ["backend-slow=inf", "backend-slow=nan", "products-slow=-1", "backend-5xx=7"])
    func faultValue(_ spec: String) async throws {
        let work = try makeWorkDirectory()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let (status, output) = try await onTerminal(["--fault", spec, "--data-dir", work + "/data"], in: work)
        #expect(status != 0)
        oneClearLine(output, mentioning: ["--fault", " to "])
        nothingCreated(work + "/data")
    }

    @Test("--family names two or more different Apple IDs, each by the --user rule", arguments: ["sandbox-1", "sandbox-1,sandbox-1", "sandbox-1,,x", ","])
    func family(_ value: String) async throws {
        let work = try makeWorkDirectory()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let (status, output) = try await headless(["--family", value, "--data-dir", work + "/data"], in: work)
        #expect(status == 64, "\(output)")
        oneClearLine(output, mentioning: ["iapsim: --family: ", "e.g. --family sandbox-1,sandbox-2"])
        nothingCreated(work + "/data")
    }

    @Test("--user follows the login screen's rule", arguments: ["", "   ", String(repeating: "a", count: 25), String(repeating: "b", count: 1000)])
    func user(_ name: String) async throws {
        let work = try makeWorkDirectory()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let (status, output) = try await onTerminal(["--user", name, "--data-dir", work + "/data"], in: work)
        #expect(status != 0)
        oneClearLine(output, mentioning: ["--user", "1 to 24"])
        nothingCreated(work + "/data")
        // Without a terminal too: a command-line mistake is named as one (64), not as a missing terminal.
        let (headlessStatus, headlessOutput) = try await headless(["--user", name, "--data-dir", work + "/data"], in: work)
        #expect(headlessStatus == 64, "\(headlessOutput)")
        oneClearLine(headlessOutput, mentioning: ["--user", "1 to 24"])
    }

    @Test("a data directory that cannot be one is named with what to do, and nothing is created")
    func dataDirectory() async throws {
        let work = try makeWorkDirectory()
        defer { try? FileManager.default.removeItem(atPath: work) }
        try "x".write(toFile: work + "/file", atomically: true, encoding: .utf8)
        var (status, output) = try await onTerminal(["--data-dir", work + "/file"], in: work)
        #expect(status != 0)
        oneClearLine(output, mentioning: [work + "/file", "not a folder"])
        (status, output) = try await onTerminal(["--data-dir", work + "/file/below"], in: work)
        #expect(status != 0)
        oneClearLine(output, mentioning: [work + "/file"])
        (status, output) = try await onTerminal(["--data-dir", ""], in: work)
        #expect(status != 0)
        oneClearLine(output, mentioning: ["--data-dir"])
        let long = work + "/" + String(repeating: "d", count: 300)
        (status, output) = try await onTerminal(["--data-dir", long], in: work)
        #expect(status != 0)
        oneClearLine(output, mentioning: ["too long"])
        for command in [["reset"], ["state"]] {
            (status, output) = try await headless(command + ["--data-dir", work + "/missing"], in: work)
            #expect(status != 0)
            oneClearLine(output, mentioning: [work + "/missing"])
            nothingCreated(work + "/missing")
        }
    }

    @Test("an unwritable (immutable) data directory is named, and nothing is written in it")
    func immutableDirectory() async throws {
        let work = try makeWorkDirectory()
        defer {
            _ = try? spawnBlocking(["chattr", "-i", work + "/locked"], output: "/dev/null")
            try? FileManager.default.removeItem(atPath: work)
        }
        try FileManager.default.createDirectory(atPath: work + "/locked", withIntermediateDirectories: true)
        guard try await spawn(["chattr", "+i", work + "/locked"], output: work + "/chattr") == 0 else { return }  // not supported here
        let (status, output) = try await onTerminal(["--data-dir", work + "/locked"], in: work)
        #expect(status != 0)
        oneClearLine(output, mentioning: [work + "/locked", "cannot write"])
    }

    @Test("state on a wrong path says what is wrong and fails; on a real one it changes nothing")
    func state() async throws {
        let work = try makeWorkDirectory()
        defer { try? FileManager.default.removeItem(atPath: work) }
        try "x".write(toFile: work + "/file", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: work + "/empty", withIntermediateDirectories: true)
        for (path, words) in [(work + "/nope", ["no such folder"]), (work + "/file", ["not a folder"]), (work + "/empty", ["no iapsim data"])] {
            let (status, output) = try await headless(["state", "--data-dir", path], in: work)
            #expect(status != 0, "\(path)")
            oneClearLine(output, mentioning: [path] + words)
        }
        // An app killed mid-purchase leaves WAL files: state must not checkpoint or delete them (keys.sh compares checksums).
        let script = repositoryRoot.appendingPathComponent("Tests/EndToEndTests/keys.sh").path
        let status = try await spawn(["bash", script, "state-readonly", builtBinary, work], output: work + "/log")
        #expect(status == 0, "\((try? String(contentsOfFile: work + "/log", encoding: .utf8)) ?? "")")
    }

    @Test("play on a directory another iapsim holds is refused, like a second app or reset")
    func playLock() async throws {
        let work = try makeWorkDirectory()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let data = work + "/data"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        try "launch alice\n".write(toFile: work + "/s.iapsim", atomically: true, encoding: .utf8)
        let status = try await spawn(["flock", data + "/iapsim.lock", builtBinary, "play", "--data-dir", data, work + "/s.iapsim"], output: work + "/out")
        let output = try String(contentsOfFile: work + "/out", encoding: .utf8)
        #expect(status != 0)
        oneClearLine(output, mentioning: ["another iapsim", data])
        nothingCreated(data + "/store.sqlite")
    }

    @Test("play's own options are checked: sizes in range, a folder is not a script, a file that is not there is named")
    func playOptions() async throws {
        let work = try makeWorkDirectory()
        defer { try? FileManager.default.removeItem(atPath: work) }
        // 1e2 too: a number is written in decimal digits, at the command line as in a script (found by QA).
        for (option, value) in [("--width", "0"), ("--height", "0"), ("--height", "-1"), ("--width", "100000"), ("--width", "1e2")] {
            let (status, output) = try await headless(["play", option, value, "paid-then-killed"], in: work)
            #expect(status != 0)
            oneClearLine(output, mentioning: [option, " to "])
        }
        var (status, output) = try await headless(["play", work], in: work)
        #expect(status != 0)
        oneClearLine(output, mentioning: [work, "is a folder"])
        (status, output) = try await headless(["play", work + "/nope.iapsim"], in: work)
        #expect(status != 0)
        oneClearLine(output, mentioning: [work + "/nope.iapsim"])
    }

    @Test("--scenario takes a shipped name or a path; its data stays under DATA_DIR/scenarios/; a failure leaves nothing")
    func scenario() async throws {
        let work = try makeWorkDirectory()
        defer { try? FileManager.default.removeItem(atPath: work) }
        var (status, output) = try await onTerminal(["--scenario", "no-such-scenario", "--data-dir", work + "/data"], in: work)
        #expect(status != 0)
        oneClearLine(output, mentioning: ["no-such-scenario", "iapsim scenarios"])
        nothingCreated(work + "/data")
        try FileManager.default.createDirectory(atPath: work + "/a/b", withIntermediateDirectories: true)
        try "# name: ../../victim\nlaunch alice\nhandover\n".write(toFile: work + "/evil.iapsim", atomically: true, encoding: .utf8)
        (status, output) = try await onTerminal(["--scenario", work + "/evil.iapsim", "--data-dir", work + "/a/b"], in: work)
        #expect(status != 0)
        oneClearLine(output, mentioning: ["evil.iapsim", "name"])
        nothingCreated(work + "/victim")
        nothingCreated(work + "/a/victim")
        nothingCreated(work + "/a/b/iapsim.lock")
    }

    @Test("play's transcript goes out line by line: a long wait shows where it is, even to a file")
    func transcriptFlushed() async throws {
        let work = try makeWorkDirectory()
        defer { try? FileManager.default.removeItem(atPath: work) }
        try "launch alice\nwait until Coins\nwait until \"never on screen\" within 3600\n".write(toFile: work + "/long.iapsim", atomically: true, encoding: .utf8)
        // Killed mid-wait: what was said before must already be in the file.
        _ = try await spawn(["timeout", "-s", "KILL", "3", builtBinary, "play", work + "/long.iapsim"], output: work + "/out")
        let output = try String(contentsOfFile: work + "/out", encoding: .utf8)
        #expect(output.contains("▶ long"), "\(output)")
        #expect(output.contains("wait until Coins"), "\(output)")
    }

    @Test("gallery speaks like every other command")
    func gallery() async throws {
        let work = try makeWorkDirectory()
        defer { try? FileManager.default.removeItem(atPath: work) }
        try "x".write(toFile: work + "/file", atomically: true, encoding: .utf8)
        let (status, output) = try await headless(["gallery", "--out", work + "/file/sub"], in: work)
        #expect(status != 0)
        oneClearLine(output, mentioning: [work + "/file"])
    }

    @Test("a catalog given as a folder is named as a folder")
    func catalogFolder() async throws {
        let work = try makeWorkDirectory()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let (status, output) = try await headless(["play", "--catalog", work, "paid-then-killed"], in: work)
        #expect(status != 0)
        oneClearLine(output, mentioning: [work, "is a folder"])
    }

    @Test("scripts/run and scripts/test keep a crash from holding the terminal (non-interactive backtrace)")
    func backtraceSetting() async throws {
        for script in ["scripts/run", "scripts/test"] {
            let text = try String(contentsOf: repositoryRoot.appendingPathComponent(script), encoding: .utf8)
            #expect(text.contains("SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-interactive=no}"), "\(script)")
        }
    }
}
