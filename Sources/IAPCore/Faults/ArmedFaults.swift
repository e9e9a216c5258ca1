/// How one fault is armed.
public struct FaultArm: Sendable, Equatable {
    public var value: String?
    /// Disarms itself the first time it fires.
    public var once: Bool

    public init(value: String? = nil, once: Bool = false) {
        self.value = value
        self.once = once
    }
}

/// The faults armed right now, with their values. Reads like a set of faults.
public struct ArmedFaults: Sendable, Equatable, Sequence, ExpressibleByArrayLiteral {
    public private(set) var arms: [Fault: FaultArm] = [:]
    /// The value each fault was last armed with, kept once it is disarmed or has fired: the fault panel arms it again so.
    public private(set) var chosen: [Fault: String] = [:]

    public init(arrayLiteral faults: Fault...) {
        for fault in faults { insert(fault) }
    }

    public init<S: Sequence>(_ faults: S) where S.Element == Fault {
        for fault in faults { insert(fault) }
    }

    public var isEmpty: Bool { arms.isEmpty }

    public func contains(_ fault: Fault) -> Bool { arms[fault] != nil }

    /// The armed value, else the fault's default; nil when not armed.
    public func value(_ fault: Fault) -> String? {
        guard let arm = arms[fault] else { return nil }
        return arm.value ?? fault.defaultValue
    }

    /// The value the fault runs with, armed or not (the one last chosen, else its default): what the fault panel shows,
    /// steps from and arms.
    public func valueInForce(_ fault: Fault) -> String? {
        arms[fault]?.value ?? chosen[fault] ?? fault.defaultValue
    }

    public func seconds(_ fault: Fault) -> Double? {
        value(fault).flatMap(Double.init)
    }

    public func arm(_ fault: Fault) -> FaultArm? { arms[fault] }

    public mutating func insert(_ fault: Fault, _ arm: FaultArm = FaultArm()) {
        arms[fault] = arm
        chosen[fault] = arm.value
    }

    public mutating func remove(_ fault: Fault) {
        arms[fault] = nil
    }

    public func makeIterator() -> IndexingIterator<[Fault]> {
        arms.keys.sorted().makeIterator()
    }

    /// `NAME[=VALUE][:once]`, as `--fault` and scripts write it.
    public static func parse(_ text: String) throws(FaultSyntaxError) -> (Fault, FaultArm) {
        var spec = Substring(text.trimmingCharacters(in: .whitespaces))
        var once = false
        if spec.hasSuffix(":once") {
            once = true
            spec = spec.dropLast(5)
        }
        // A known fault with a suffix other than :once asked for a duration faults do not have.
        if let colon = spec.lastIndex(of: ":"), let name = spec[..<colon].split(separator: "=").first, Fault(rawValue: String(name)) != nil {
            let base = spec[..<colon]
            throw FaultSyntaxError(message: "\"\(spec[spec.index(after: colon)...])\" is not how long \(name) lasts: "
                                   + "give \(base) (until cleared) or \(base):once (gone after it fires once)")
        }
        let parts = spec.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let name = parts.first, let fault = Fault(rawValue: name) else {
            throw FaultSyntaxError(message: "unknown fault \"\(parts.first ?? "")\" (`iapsim faults` lists them)")
        }
        let value = parts.count > 1 ? parts[1] : nil
        if let value { try check(value, for: fault) }
        return (fault, FaultArm(value: value, once: once))
    }

    /// Checked at the edge: a non-finite or huge value would end up as a date in a party's database.
    private static func check(_ value: String, for fault: Fault) throws(FaultSyntaxError) {
        let name = fault.rawValue
        func within(_ range: ClosedRange<Double>, whole: Bool) throws(FaultSyntaxError) {
            guard let number = Double(decimal: value), number.isFinite, range.contains(number), !whole || number.rounded() == number else {
                throw FaultSyntaxError(message: "\(name) takes \(whole ? "a whole number " : "")"
                    + "\(Int(range.lowerBound)) to \(Int(range.upperBound)) (\(fault.valueHelp ?? "")), not \"\(value)\"")
            }
        }
        switch fault.rule.value {
        case .none:
            throw FaultSyntaxError(message: "\(name) takes no value")
        case let taken where value.isEmpty:
            throw FaultSyntaxError(message: "\(name)= has no value: give \(name)=VALUE (VALUE: \(taken.range)), "
                                   + "or \(name) alone for \(fault.defaultValue ?? "")")
        case let .seconds(range):
            try within(range, whole: false)
        case let .whole(range, _, _):
            try within(Double(range.lowerBound)...Double(range.upperBound), whole: true)
        case let .word(words) where !words.contains(value):
            let choices = words.count == 2 ? "\(words[0]) or \(words[1])" : "one of " + words.joined(separator: ", ")
            throw FaultSyntaxError(message: "\(name) takes \(choices), not \"\(value)\"")
        case .word:
            break
        }
    }

    /// How the fault reads on a badge: `name`, or `name=value` with the value in force (given or default),
    /// with `·once` when one-shot.
    public func label(_ fault: Fault) -> String {
        guard let arm = arms[fault] else { return fault.rawValue }
        return fault.rawValue + (value(fault).map { $0.isEmpty ? "" : "=\($0)" } ?? "") + (arm.once ? "·once" : "")
    }
}

public struct FaultSyntaxError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
