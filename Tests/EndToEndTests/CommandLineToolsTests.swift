import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// The headless commands of the real binary: gallery, play, scenarios.
@Suite("Headless commands of the real binary")
struct CommandLineToolsTests {
    @Test("gallery: every state in both languages as text and well-formed SVG, an index explaining each, the same bytes twice")
    func gallery() async throws {
        let work = try makeWorkDirectory()
        defer { try? FileManager.default.removeItem(atPath: work) }
        #expect(try await spawn([builtBinary, "gallery", "--out", work + "/a"], output: work + "/out-a") == 0)
        #expect(try await spawn([builtBinary, "gallery", "--out", work + "/b"], output: work + "/out-b") == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: work + "/a").sorted()
        #expect(files == (try FileManager.default.contentsOfDirectory(atPath: work + "/b").sorted()))
        for file in files {
            let a = try Data(contentsOf: URL(fileURLWithPath: work + "/a/" + file))
            #expect(a == (try Data(contentsOf: URL(fileURLWithPath: work + "/b/" + file))), "\(file) differs between two runs")
        }
        let index = try String(contentsOfFile: work + "/a/index.html", encoding: .utf8)
        let states = files.filter { $0.hasSuffix(".en.txt") }.map { String($0.dropLast(".en.txt".count)) }
        #expect(states.count >= 27)
        for state in states {
            for lang in ["en", "zh"] {
                #expect(files.contains("\(state).\(lang).txt"))
                #expect(files.contains("\(state).\(lang).svg"))
                let svg = try Data(contentsOf: URL(fileURLWithPath: "\(work)/a/\(state).\(lang).svg"))
                #expect(XMLParser(data: svg).parse(), "\(state).\(lang).svg is not well-formed XML")
            }
            #expect(index.contains("id=\"\(state)\""))
            #expect(index.contains("src=\"\(state).zh.svg\""))
        }
        let chinese = try String(contentsOfFile: work + "/a/prompt-unfinished.zh.svg", encoding: .utf8)
        #expect(chinese.contains("发现未完成订单"))
        #expect(chinese.contains("┌"))
        #expect(chinese.contains("fill=\"#3fb1c5\""))  // the frame's colour survives
        #expect(index.contains("What support should do"))
        #expect(index.contains("客服应当怎么做"))
    }

    @Test("iapsim is the app alone: a plain launch starts in it, anything else runs iapsim-wire in its place; alone, one line says how to build it")
    func wireHandover() async throws {
        let work = try makeWorkDirectory()
        defer { try? FileManager.default.removeItem(atPath: work) }
        func startsHere(_ arguments: [String]) async throws -> Bool {
            try await spawn(["/usr/bin/env", "IAPSIM_LEAN_CHECK=1", builtBinary] + arguments, output: work + "/check") == 0
        }
        for plain in [[], ["--user", "alice", "--lang", "zh"], ["run", "--speed", "4", "--fault", "backend-down"]] {
            #expect(try await startsHere(plain), "\(plain)")
        }
        for wire in [["--serve"], ["--backend", "http://127.0.0.1:9000"], ["--notify", "http://127.0.0.1:9000/n"], ["serve"], ["state"], ["--help"],
                     ["--bogus"]] {
            #expect(try await startsHere(wire) == false, "\(wire)")
        }
        #expect(try await spawn([builtBinary, "--version"], output: work + "/version") == 0)
        #expect(try String(contentsOfFile: work + "/version", encoding: .utf8).contains("0.1.0"))
        // Copied by a child of its own: a copy written by this process could leave its write descriptor in a program
        // another test starts meanwhile, for that program's whole life, and the copy would not run ("Text file busy").
        #expect(try await spawn(["/bin/cp", builtBinary, work + "/iapsim"], output: work + "/copy") == 0)
        #expect(try await spawn([work + "/iapsim", "serve"], output: work + "/alone") == 1)
        let alone = try String(contentsOfFile: work + "/alone", encoding: .utf8)
        #expect(alone.hasPrefix("iapsim: ") && alone.contains("scripts/build-release iapsim-wire") && alone.split(separator: "\n").count == 1, "\(alone)")
    }

    @Test("play: a passing script exits 0 with a transcript; a failing one exits 1 at its line with the screen")
    func play() async throws {
        let work = try makeWorkDirectory()
        defer { try? FileManager.default.removeItem(atPath: work) }
        #expect(try await spawn([builtBinary, "play", "paid-then-killed"], output: work + "/pass") == 0)
        let pass = try String(contentsOfFile: work + "/pass", encoding: .utf8)
        #expect(pass.contains("expect credits alice 1   ✓ 1"))
        #expect(pass.contains("✔ paid-then-killed"))

        try "launch alice\nwait until Coins\nexpect coins alice 60\npress Enter\n".write(toFile: work + "/fail.iapsim", atomically: true, encoding: .utf8)
        #expect(try await spawn([builtBinary, "play", work + "/fail.iapsim"], output: work + "/fail") == 1)
        let fail = try String(contentsOfFile: work + "/fail", encoding: .utf8)
        #expect(fail.contains("fail.iapsim:3: coins of alice: expected 60, found 0"))
        #expect(fail.contains("screen at that moment:"))
        #expect(fail.contains("Balance 0 coins"))
        #expect(!fail.contains("press Enter"))
    }

    @Test("scenarios lists each shipped scenario with what it shows and how it should end")
    func scenarios() async throws {
        let work = try makeWorkDirectory()
        defer { try? FileManager.default.removeItem(atPath: work) }
        #expect(try await spawn([builtBinary, "scenarios"], output: work + "/out") == 0)
        let out = try String(contentsOfFile: work + "/out", encoding: .utf8)
        for name in ["paid-then-killed", "reinstall-with-pending", "ask-to-buy-declined"] {
            #expect(out.contains("\n\(name)\n") || out.hasPrefix("\(name)\n"))
        }
        #expect(out.contains("expect  "))
    }
}

/// The command line as its ecosystem expects: machine-readable lists, shell completion, a man page.
@Suite("The command line's ecosystem: --json, completion scripts, the man page")
struct CommandLineEcosystemTests {
    private func run(_ arguments: [String]) async throws -> (Int32, String) {
        let work = try makeWorkDirectory()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let status = try await spawn([builtBinary] + arguments, output: work + "/out")
        return (status, try String(contentsOfFile: work + "/out", encoding: .utf8))
    }

    @Test("faults --json and scenarios --json list what the text lists, as JSON")
    func jsonLists() async throws {
        let (faultStatus, faults) = try await run(["faults", "--json"])
        #expect(faultStatus == 0)
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(faults.utf8)) as? [[String: Any]])
        #expect(listed.contains { $0["name"] as? String == "billing-fails" && $0["party"] as? String == "store" && $0["default"] as? String == "99" })
        let (_, text) = try await run(["faults"])
        #expect(listed.allSatisfy { text.contains($0["name"] as? String ?? "?") })
        let (scenarioStatus, scenarios) = try await run(["scenarios", "--json"])
        #expect(scenarioStatus == 0)
        let named = try #require(try JSONSerialization.jsonObject(with: Data(scenarios.utf8)) as? [[String: Any]])
        #expect(named.contains { $0["name"] as? String == "paid-then-killed" && ($0["shows"] as? String)?.isEmpty == false })
    }

    @Test("bash, zsh and fish completion: files for --catalog and play, folders for --data-dir, fault and scenario names")
    func completion() async throws {
        for shell in ["bash", "zsh", "fish"] {
            let (status, script) = try await run(["--generate-completion-script", shell])
            #expect(status == 0)
            #expect(script.contains("storekit"), "\(shell): no .storekit completion for --catalog")
            #expect(script.contains("billing-fails") && script.contains("renewal-while-closed"), "\(shell): no fault names")
            #expect(script.contains("paid-then-killed"), "\(shell): no scenario names")
            #expect(script.contains("iapsim"), "\(shell)")
        }
    }

    @Test("serve's help names everything it serves: Apple's verifyReceipt and Server API, and the built-in backend")
    func serveHelp() async throws {
        let (_, wrapped) = try await run(["serve", "--help"])
        let help = wrapped.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for served in ["verifyReceipt", "App Store Server API", "/backend/v1"] {
            #expect(help.contains(served), "\(served): \(help)")
        }
    }

    @Test("the committed man page covers every command (scripts/man writes it from the definitions)")
    func manPage() async throws {
        let page = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/iapsim.1"), encoding: .utf8)
        for command in ["run", "play", "scenarios", "state", "faults", "reset", "gallery", "catalog"] {
            #expect(page.contains(".It Em \(command)"), "docs/iapsim.1 lacks \(command): run scripts/man")
        }
        let (_, help) = try await run(["--help"])
        for option in ["--catalog", "--data-dir", "--fault", "--speed", "--json"] where help.contains(option) {
            #expect(page.contains(option.dropFirst(2)), "docs/iapsim.1 lacks \(option)")
        }
    }
}
