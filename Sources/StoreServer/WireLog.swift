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
    private let limit: Int

    public init(limit: Int = 50) {
        self.limit = limit
    }

    func record(_ exchange: Exchange) {
        lock.lock()
        kept.append(exchange)
        if kept.count > limit { kept.removeFirst(kept.count - limit) }
        lock.unlock()
    }

    public var exchanges: [Exchange] {
        lock.lock()
        defer { lock.unlock() }
        return kept
    }
}
