import Foundation
import Launcher

// `iapsim`: the app on the terminal. A plain launch that asks for no wire starts here; anything else (another
// command, help, --serve, --backend, --notify, a mistake for ArgumentParser to name) is `iapsim-wire`'s, which runs in
// this process's place with the same arguments. `IAPSIM_LEAN_CHECK=1` only says which (exit 0: here), for scripts/run
// to build `iapsim-wire` when it is needed.
let arguments = PortNumber.withServePort(Array(CommandLine.arguments.dropFirst()))
let plain = LaunchSettings(plain: arguments).flatMap { $0.needsWire ? nil : $0 }
if getenv("IAPSIM_LEAN_CHECK") != nil { exit(plain == nil ? 1 : 0) }
if let plain {
    do { try plain.launch() } catch { Console.fail(error) }
    exit(0)
}
WireExecutable.replaceThisProcess()
