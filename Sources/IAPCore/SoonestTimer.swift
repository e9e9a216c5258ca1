import Foundation

/// One timer on a scheduler for the soonest of what falls due: set again for something sooner it moves earlier, for
/// something later it stays (whatever it fires for sets it again for what is next).
public final class SoonestTimer {
    public private(set) var due: Date?

    public init() {}

    /// Fires `work` with the date it was set for, unless it was set for an earlier date meanwhile.
    public func set(_ date: Date, on scheduler: Scheduler, _ work: @escaping (Date) -> Void) {
        guard due.map({ date < $0 }) ?? true else { return }
        due = date
        scheduler.after(max(date.timeIntervalSince(scheduler.now), 0)) { [weak self] in
            guard let self, self.due == date else { return }
            self.due = nil
            work(date)
        }
    }
}
