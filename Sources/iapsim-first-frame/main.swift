import Foundation
import IAPApp
import Launcher

// scripts/bench's start-up measure: a plain launch exactly as `iapsim` makes it (the same code, and like `iapsim`
// without ArgumentParser in the binary), with the parties answering at once, quitting after the first frame that
// shows the products or, into a backlog, the prompt to continue an unfinished order; or (given `--launch-screen` first)
// after the launch screen.
var arguments = Array(CommandLine.arguments.dropFirst())
let exit: LaunchSettings.BenchmarkExit = arguments.first == "--launch-screen" ? .launchScreen : .products
if exit == .launchScreen { arguments.removeFirst() }
guard let plain = LaunchSettings(plain: arguments) else {
    Console.fail("iapsim-first-frame takes [--launch-screen] and run's options only, e.g. --data-dir DIR --user alice", code: Console.usageFailure)
}
do { try plain.launch(latency: .instant, exitAfter: exit) } catch { Console.fail(error) }
