import Foundation
import Testing

/// issue 11 item 6: a short real-kill campaign (scripts/campaign) against the debug binary that scripts/test builds.
/// The long one is the README's command; both print the seed, the round and a replay command when an invariant breaks.
@Suite("A short real-kill campaign")
struct CampaignTests {
    @Test("20 seeded rounds of three users, random keys, faults and kill -9/SIGTERM/SIGHUP/quit, then recovery: paid = credited, no double, no wrong account, no orphan, nothing unfinished or pending, nothing owned charged twice")
    func shortCampaign() async throws {
        let work = try makeWorkDirectory()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let output = work + "/campaign.out"
        let script = repositoryRoot.appendingPathComponent("scripts/campaign").path
        let status = try await spawn(["python3", script, "--rounds", "20", "--seed", "2026", "--binary", builtBinary, "--keep", work + "/run"],
                               output: output, counted: false)
        let transcript = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        #expect(status == 0, "scripts/campaign failed (status \(status)):\n\(transcript)")
        #expect(transcript.contains("OK: seed 2026, 20 rounds"))
    }
}
