import Foundation
import IAPCore
import Testing

/// Randomness is injected as time is: what Apple draws (a notification's UUID) comes from the source the parties are
/// given, so a seeded run replays the same, and the app's own source draws anew.
@Suite("What Apple draws at random")
struct RandomSourceTests {
    /// Alice buys coins twice: two ONE_TIME_CHARGEs, each with its UUID.
    private func notificationUUIDs(_ random: RandomSource) throws -> [String] {
        let app = try Harness(user: "alice", random: random)
        app.advance(0.5)
        app.buy("com.iapsim.coins.60")
        app.buy("com.iapsim.coins.300")
        return try app.parties.store.database.recentNotifications(limit: 10).map(\.notification.uuid)
    }

    @Test("two runs given the same seed write the same notification UUIDs, each a version 4 UUID; the system's source draws anew")
    func seededRunsReplay() throws {
        let first = try notificationUUIDs(RandomSource(SplitMix64(state: 7)))
        #expect(first.count == 2)
        #expect(first.allSatisfy { UUID(uuidString: $0) != nil && $0 == $0.lowercased() && Array($0)[14] == "4" })
        #expect(try notificationUUIDs(RandomSource(SplitMix64(state: 7))) == first)
        #expect(try notificationUUIDs(RandomSource(SplitMix64(state: 8))) != first)
        #expect(try notificationUUIDs(.system) != notificationUUIDs(.system))
    }
}
