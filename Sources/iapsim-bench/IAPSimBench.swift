import ArgumentParser
import Foundation
import IAPApp
import Launcher

/// `scripts/bench`'s measurements, kept out of the product binary. Each starts the app exactly as `iapsim run` does.
@main
struct IAPSimBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "iapsim-bench",
        abstract: "Benchmarks for scripts/bench: start-up to the first frame, frame rendering, engine throughput.",
        subcommands: [FirstFrame.self, Frames.self, Engine.self])

    /// `first-frame` with plain run options starts as `iapsim` does, without ArgumentParser.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == FirstFrame.configuration.commandName, let plain = LaunchSettings(plain: Array(arguments.dropFirst())) {
            do { try FirstFrame.launch(plain) } catch { exit(withError: error) }
            return
        }
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            exit(withError: error)
        }
    }
}

/// Start → first frame that shows the products → quit, with the parties answering at once.
struct FirstFrame: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "first-frame", abstract: "Launch as `iapsim run`, quit after the first frame with products.")

    @OptionGroup var options: RunOptions

    func run() throws {
        try Self.launch(options.settings)
    }

    static func launch(_ settings: LaunchSettings) throws {
        try settings.launch(latency: .instant, exitAfterFirstFrame: true)
    }
}

/// After the first frame, full frames rendered and flushed to the terminal; their median in milliseconds goes to a file.
struct Frames: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "frames", abstract: "Render and flush full frames; write the median ms to --out.")

    @OptionGroup var options: RunOptions

    @Option(help: "Where to write the median frame time in milliseconds.")
    var out: String

    @Option(help: "How many frames to time.")
    var frames = 400

    func run() throws {
        try options.settings.launch(latency: .instant, exitAfterFirstFrame: true) { session, terminal, theme in
            let median = FrameBench.run(session: session, terminal: terminal, theme: theme, frames: frames)
            try Data(String(format: "%.3f\n", median).utf8).write(to: URL(fileURLWithPath: out))
        }
    }
}
