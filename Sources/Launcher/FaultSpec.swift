import IAPCore

/// `--fault NAME[=VALUE][:once]`.
public struct FaultSpec {
    public let fault: Fault
    public let arm: FaultArm

    public init(_ argument: String) throws {
        (fault, arm) = try ArmedFaults.parse(argument)
    }

    public static func armed(_ specs: [FaultSpec]) -> ArmedFaults {
        var armed: ArmedFaults = []
        for spec in specs { armed.insert(spec.fault, spec.arm) }
        return armed
    }
}
