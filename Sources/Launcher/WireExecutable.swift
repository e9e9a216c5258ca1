import Foundation

/// `iapsim-wire`, beside `iapsim`: every command, the wire included.
public enum WireExecutable {
    static let name = "iapsim-wire"

    /// Runs `iapsim-wire` in this process's place, with this process's arguments; says in one line why when it cannot.
    public static func replaceThisProcess() -> Never {
        let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let path = URL(fileURLWithPath: own).deletingLastPathComponent().appendingPathComponent(name).path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            Console.fail("this needs \(name) beside iapsim, and there is no \(path): run it through scripts/run, which builds what is "
                         + "asked, or build it with scripts/build-release \(name) (a copied iapsim needs \(name) copied beside it)")
        }
        let argv = CommandLine.arguments.map { strdup($0) } + [nil]
        execv(path, argv)
        Console.fail("cannot start \(path): \(String(cString: strerror(errno)))")
    }
}

extension LaunchSettings {
    /// The launch asks for the wire (`--serve`, `--backend`, `--notify`), which only `iapsim-wire` carries.
    public var needsWire: Bool { serve != nil || backend != nil || notify != nil }
}
