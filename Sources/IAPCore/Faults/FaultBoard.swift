/// The armed faults as the mock parties see them: one board shared by the store, the backend and the runtime.
/// A party asks `fire` at the moment a fault would change what it does; a one-shot fault disarms itself there.
/// The board is the only owner of what is armed: the app's state holds a copy, refreshed through `onChange`.
public final class FaultBoard {
    public private(set) var armed: ArmedFaults {
        didSet { if armed != oldValue { onChange(armed) } }
    }
    /// Told when a fault fires, so the timeline can say so.
    public var onFired: (Fault) -> Void = { _ in }
    /// Told whenever what is armed changes, whoever changed it, so the screen shows what the parties obey.
    public var onChange: (ArmedFaults) -> Void = { _ in }

    public init(_ armed: ArmedFaults = []) {
        self.armed = armed
    }

    public func set(_ fault: Fault, _ arm: FaultArm?) {
        if let arm { armed.insert(fault, arm) } else { armed.remove(fault) }
    }

    /// Whether `fault` is armed without firing it (for state a party reports, like `canMakePayments`).
    public func isArmed(_ fault: Fault) -> Bool { armed.contains(fault) }

    /// The fault's value when it is armed (nil otherwise), firing it.
    @discardableResult
    public func fire(_ fault: Fault) -> String? {
        guard let arm = armed.arm(fault) else { return nil }
        let value = armed.value(fault) ?? ""
        if arm.once { armed.remove(fault) }
        onFired(fault)
        return value
    }
}
