import Foundation

/// The one thread that owns the parties (their databases, faults and clock): the app's main loop, or `iapsim serve`'s
/// own. The server's handlers run on other threads and hand their work here, so that a request and a key press never
/// touch a party at the same time.
public final class PartyThread: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [() -> Void] = []

    public init() {}

    /// Runs `work` on the parties' thread and waits for its answer, which it gives through its callback: at once, or
    /// later from a timer of the parties' clock (a slow backend fault, a backend that times out).
    func perform<T: Sendable>(_ work: @escaping (@escaping (T) -> Void) -> Void) async -> T {
        await withCheckedContinuation { continuation in
            condition.lock()
            jobs.append { work { continuation.resume(returning: $0) } }
            condition.signal()
            condition.unlock()
        }
    }

    /// Hands `job` to the parties' thread from any other (an answer from the network).
    public func post(_ job: @escaping () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// On the parties' thread: runs every job handed over so far; when there is none, waits up to `timeout` seconds for
    /// one. Returns whether any ran.
    @discardableResult
    public func runJobs(waitingUpTo timeout: Double = 0) -> Bool {
        condition.lock()
        if jobs.isEmpty, timeout > 0 { _ = condition.wait(until: Date(timeIntervalSinceNow: timeout)) }
        let taken = jobs
        jobs.removeAll()
        condition.unlock()
        for job in taken { job() }
        return !taken.isEmpty
    }
}

/// A value only touched on the parties' thread, carried through the server's `Sendable` handlers to get there.
struct Confined<Value>: @unchecked Sendable {
    let value: Value
}
