import Foundation
import IAPCore

/// Every delayed piece of work in the app, on one clock: `Date()` when live, a virtual one in tests.
public final class TimerQueue: Scheduler {
    private struct Entry {
        let due: Date
        let order: Int
        /// Work a person would mostly not see happen (a look at the store's queue in case a payment's callback was
        /// lost): QA's `t` skips past it to anything else scheduled.
        let quiet: Bool
        let work: () -> Void
    }

    private var entries: [Entry] = []
    private var counter = 0
    private var virtualNow: Date?
    /// Live time control: the clock runs `speed` times faster than the wall, plus what was skipped.
    private let speed: Double
    private let realStart = Date()
    private var skipped: TimeInterval = 0

    /// A live queue reads the real clock, `speed` times faster, from `start` on (a scenario set up ahead of the wall).
    public init(speed: Double = 1, start: Date? = nil) {
        self.speed = max(speed, 0.01)
        skipped = max(start.map { $0.timeIntervalSince(realStart) } ?? 0, 0)
    }

    /// A virtual queue: time moves only when `advance` says so.
    public init(virtualStart: Date) {
        virtualNow = virtualStart
        speed = 1
    }

    public var now: Date {
        virtualNow ?? realStart.addingTimeInterval(Date().timeIntervalSince(realStart) * speed + skipped)
    }

    public var isWallTime: Bool { virtualNow == nil && speed == 1 && skipped == 0 }

    /// Moves the clock straight to the next scheduled piece of work a person would see and runs it, with any quiet work
    /// due before it (QA's "skip the wait"); to the next quiet one when nothing else is scheduled, as it may be what
    /// happens next (a look again at the store's queue finds a payment whose callback was lost).
    public func skipToNextDue() {
        guard let due = entries.filter({ !$0.quiet }).map(\.due).min() ?? nextDue else { return }
        let gap = max(due.timeIntervalSince(now), 0)
        if virtualNow != nil {
            advance(by: gap)
        } else {
            skipped += gap
            runDue()
        }
    }

    /// Sets the clock forward to `date` without running anything: time that passed while the app was not running.
    public func jump(to date: Date) {
        let gap = date.timeIntervalSince(now)
        guard gap > 0 else { return }
        if let virtualNow { self.virtualNow = virtualNow.addingTimeInterval(gap) } else { skipped += gap }
    }

    /// How long the wall clock waits until the app's clock reaches `date`.
    public func wallSeconds(until date: Date) -> Double {
        max(date.timeIntervalSince(now), 0) / (virtualNow == nil ? speed : 1)
    }

    public func after(_ seconds: Double, _ work: @escaping () -> Void) {
        _ = cancellable(after: seconds, work)
    }

    /// Work a person would mostly not see happen, which `skipToNextDue` passes when anything else is scheduled.
    public func quietly(after seconds: Double, _ work: @escaping () -> Void) {
        at(now.addingTimeInterval(max(seconds, 0)), quiet: true, work)
    }

    public func cancellable(after seconds: Double, _ work: @escaping () -> Void) -> Int {
        // Values are checked at the edge; should a non-finite one get through, it means "never", not a date of Inf.
        guard seconds.isFinite else { return at(.distantFuture, work) }
        return at(now.addingTimeInterval(max(seconds, 0)), work)
    }

    public func cancel(_ ticket: Int) {
        entries.removeAll { $0.order == ticket }
    }

    @discardableResult
    public func at(_ date: Date, quiet: Bool = false, _ work: @escaping () -> Void) -> Int {
        counter += 1
        entries.append(Entry(due: date, order: counter, quiet: quiet, work: work))
        return counter
    }

    public var nextDue: Date? { entries.map(\.due).min() }

    /// Forgets every piece of work: the process they belonged to is gone (a kill, a relaunch). Pending work holds the
    /// parties (a verification waiting for the backend holds the store, which holds this queue), so keeping it would
    /// also keep a dead app's databases open.
    public func cancelAll() {
        entries = []
    }

    /// Runs every piece of work due by now that was scheduled before this call, oldest first. Work they schedule for
    /// now waits for the next call, so that the live loop draws a frame between the steps of a long chain (a long
    /// store queue read a batch at a time).
    public func runDue() {
        let scheduledBefore = counter
        while let next = popDue(by: now, scheduledBy: scheduledBefore) { next.work() }
    }

    /// Virtual time only: moves the clock forward, running each piece of work at its own instant.
    public func advance(by seconds: Double) {
        guard let start = virtualNow else { return }
        let end = start.addingTimeInterval(seconds)
        while let next = popDue(by: end) {
            virtualNow = max(virtualNow ?? next.due, next.due)
            next.work()
        }
        // Work may have skipped time ahead; the clock never runs backwards.
        virtualNow = max(virtualNow ?? end, end)
    }

    private func popDue(by date: Date, scheduledBy last: Int = .max) -> Entry? {
        guard let index = entries.indices.filter({ entries[$0].due <= date && entries[$0].order <= last })
            .min(by: { (entries[$0].due, entries[$0].order) < (entries[$1].due, entries[$1].order) })
        else { return nil }
        return entries.remove(at: index)
    }
}
