import Foundation
import Testing

/// The terminal (issue 12, defects 7, 8 and 15): keypad keys are the keys they are, keys act only on a screen
/// someone can see, a terminal that cannot address the cursor is refused, and signals give 128+N.
@Suite("Terminal: keypad keys, small and dumb terminals, signals")
struct TerminalInputTests {
    private func run(_ name: String, term: String = "xterm-256color") async throws {
        let work = try makeWorkDirectory()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let script = repositoryRoot.appendingPathComponent("Tests/EndToEndTests/keys.sh").path
        let status = try await spawn(["bash", script, name, builtBinary, work, term], output: work + "/log")
        let transcript = (try? String(contentsOfFile: work + "/log", encoding: .utf8)) ?? ""
        #expect(status == 0, "keys.sh \(name) failed:\n\(transcript)")
    }

    /// xterm names some keypad keys in terminfo (kent, kc1, extended kc2…); screen (tmux's own default) names none.
    static let terms = ["xterm-256color", "screen"]

    @Test("keypad Enter at the launch prompt chooses Continue, as Enter does", arguments: terms)
    func keypadEnter(_ term: String) async throws { try await run("keypad-enter", term: term) }
    @Test("keypad digits type digits", arguments: terms)
    func keypadDigits(_ term: String) async throws { try await run("keypad-digits", term: term) }
    @Test("at 40×10 Enter buys nothing; q still quits") func tooSmall() async throws { try await run("too-small") }
    @Test("TERM=dumb is refused with a message, and nothing is created") func dumb() async throws { try await run("dumb") }
    @Test("SIGTERM exits 143") func sigterm() async throws { try await run("sigterm") }
    @Test("SIGINT exits 130") func sigint() async throws { try await run("sigint") }
}
