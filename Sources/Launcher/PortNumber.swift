import ArgumentParser

/// A TCP port given on the command line, checked at the edge.
public enum PortNumber {
    public static let standard = 8787

    public static func parse(_ text: String) throws -> Int {
        guard let port = Int(text), (0...65535).contains(port) else {
            throw ValidationError("\"\(text)\" is not a port; give 0 to 65535 (0: any free port)")
        }
        return port
    }

    /// `--serve` with no port takes the standard one: ArgumentParser has no option whose value may be left out, so the
    /// arguments get it written in before anything parses them.
    public static func withServePort(_ arguments: [String]) -> [String] {
        var written: [String] = []
        for (i, argument) in arguments.enumerated() {
            written.append(argument)
            let next = arguments.indices.contains(i + 1) ? arguments[i + 1] : nil
            // A negative number is a port given (and refused), not the next option.
            if argument == "--serve", next.map({ $0.hasPrefix("-") && Int($0) == nil }) ?? true { written.append(String(standard)) }
        }
        return written
    }
}
