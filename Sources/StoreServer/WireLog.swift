import Foundation

/// The server's last requests and answers, newest last, for the inspector.
public final class WireLog: @unchecked Sendable {
    public struct Exchange: Sendable, Equatable {
        public let method: String
        public let path: String
        public let status: Int
        /// What the answer said in a few words: Apple's status, an error code, what was signed.
        public let summary: String
        public let milliseconds: Int
    }

    private let lock = NSLock()
    private var kept: [Exchange] = []
    /// How many were ever recorded: the number of the newest.
    private var recorded = 0
    private let limit: Int

    public init(limit: Int = 50) {
        self.limit = limit
    }

    func record(_ exchange: Exchange) {
        lock.lock()
        kept.append(exchange)
        recorded += 1
        if kept.count > limit { kept.removeFirst(kept.count - limit) }
        lock.unlock()
    }

    /// The exchanges recorded after the `seen`th (those still kept), and the number of the newest.
    public func exchanges(after seen: Int) -> (exchanges: [Exchange], newest: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (Array(kept.suffix(min(recorded - seen, kept.count))), recorded)
    }

    public var exchanges: [Exchange] {
        lock.lock()
        defer { lock.unlock() }
        return kept
    }
}

/// How long an exchange took, in whole milliseconds, for its line on the timeline.
enum Elapsed {
    static func milliseconds(since start: ContinuousClock.Instant) -> Int {
        Int(((ContinuousClock.now - start) / .milliseconds(1)).rounded())
    }
}
