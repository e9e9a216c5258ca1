import Foundation

/// A TCP port given on the command line, checked at the edge.
public enum PortNumber {
    public static let standard = 8787

    public static func parse(_ text: String) throws -> Int {
        guard let port = Int(text), (0...65535).contains(port) else {
            throw CommandLineError(description: "\"\(text)\" is not a port; give 0 to 65535 (0: any free port)")
        }
        return port
    }

    /// Why 127.0.0.1:`port` cannot be listened on now (another program has it, or it is a privileged port), or nil
    /// when it can: asked before a command opens or creates any file, so that a port in use leaves nothing behind.
    static func unavailable(_ port: Int) -> String? {
        guard port != 0 else { return nil }
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard probe >= 0 else { return nil }
        defer { close(probe) }
        var reuse: Int32 = 1
        // As the server's own socket: a port left in TIME_WAIT by an earlier run is free.
        setsockopt(probe, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(probe, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound != 0 else { return nil }
        return errno == EADDRINUSE ? "the port is in use" : String(cString: strerror(errno))
    }

    public static func cannotServe(port: Int, reason: String) -> String {
        "cannot serve on 127.0.0.1:\(port) (\(reason)); give another port, or 0 for any free one"
    }

    /// Says why `port` cannot be listened on (after the `option` that gave it, if one did) and exits; returns when it can.
    public static func failUnlessFree(_ port: Int, option: String? = nil) {
        if let reason = unavailable(port) { Console.fail((option.map { $0 + ": " } ?? "") + cannotServe(port: port, reason: reason)) }
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
