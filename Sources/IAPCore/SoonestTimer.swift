import Foundation

/// One timer on a scheduler for the soonest of what falls due: set again for something sooner it moves earlier, for
/// something later it stays (whatever it fires for sets it again for what is next), unless it is `reset` to exactly
/// when the next thing is. A timer moved leaves nothing behind on the scheduler, so that QA's `t`, which skips to the
/// next piece of work, never lands where nothing happens.
public final class SoonestTimer {
    public private(set) var due: Date?
    private var ticket: Int?

    public init() {}

    /// Fires `work` with the date it was set for, unless it was set for an earlier date meanwhile.
    public func set(_ date: Date, on scheduler: Scheduler, _ work: @escaping (Date) -> Void) {
        guard due.map({ date < $0 }) ?? true else { return }
        reset(date, on: scheduler, work)
    }

    /// Fires `work` at `date`, the next there is now, whatever it was set for before; never, for nil.
    public func reset(_ date: Date?, on scheduler: Scheduler, _ work: @escaping (Date) -> Void) {
        guard date != due else { return }
        if let ticket { scheduler.cancel(ticket) }
        (due, ticket) = (date, nil)
        guard let date else { return }
        ticket = scheduler.cancellable(after: max(date.timeIntervalSince(scheduler.now), 0)) { [weak self] in
            guard let self, self.due == date else { return }
            (self.due, self.ticket) = (nil, nil)
            work(date)
        }
    }
}
