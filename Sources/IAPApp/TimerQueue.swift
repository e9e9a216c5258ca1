import Foundation
import IAPCore

/// Every delayed piece of work in the app, on one clock: `Date()` when live, a virtual one in tests.
public final class TimerQueue: Scheduler {
    private struct Entry {
        let due: Date
        let order: Int
        let work: () -> Void
    }

    private var entries: [Entry] = []
    private var counter = 0
    private var virtualNow: Date?

    /// A live queue reads the real clock.
    public init() {}

    /// A virtual queue: time moves only when `advance` says so.
    public init(virtualStart: Date) {
        virtualNow = virtualStart
    }

    public var now: Date { virtualNow ?? Date() }

    public func after(_ seconds: Double, _ work: @escaping () -> Void) {
        at(now.addingTimeInterval(max(seconds, 0)), work)
    }

    public func at(_ date: Date, _ work: @escaping () -> Void) {
        counter += 1
        entries.append(Entry(due: date, order: counter, work: work))
    }

    public var nextDue: Date? { entries.map(\.due).min() }

    /// Runs every piece of work due by now, oldest first, including work they schedule for now.
    public func runDue() {
        while let next = popDue(by: now) { next.work() }
    }

    /// Virtual time only: moves the clock forward, running each piece of work at its own instant.
    public func advance(by seconds: Double) {
        guard let start = virtualNow else { return }
        let end = start.addingTimeInterval(seconds)
        while let next = popDue(by: end) {
            virtualNow = max(virtualNow ?? next.due, next.due)
            next.work()
        }
        virtualNow = end
    }

    private func popDue(by date: Date) -> Entry? {
        guard let index = entries.indices.filter({ entries[$0].due <= date })
            .min(by: { (entries[$0].due, entries[$0].order) < (entries[$1].due, entries[$1].order) })
        else { return nil }
        return entries.remove(at: index)
    }
}
