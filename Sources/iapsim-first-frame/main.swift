import Foundation
import IAPApp
import Launcher

// scripts/bench's start-up measure: a plain launch exactly as `iapsim` makes it (the same code, and like `iapsim`
// without ArgumentParser in the binary), with the parties answering at once, quitting after the first frame that
// shows the products.
guard let plain = LaunchSettings(plain: Array(CommandLine.arguments.dropFirst())) else {
    Console.fail("iapsim-first-frame takes run's options only, e.g. --data-dir DIR --user alice", code: Console.usageFailure)
}
do { try plain.launch(latency: .instant, exitAfterFirstFrame: true) } catch { Console.fail(error) }
