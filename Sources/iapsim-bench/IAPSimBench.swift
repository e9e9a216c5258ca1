import ArgumentParser
import Foundation
import IAPApp
import LaunchOptions
import Launcher

/// `scripts/bench`'s measurements, kept out of the product binary. Each starts the app exactly as `iapsim run` does.
@main
struct IAPSimBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "iapsim-bench",
        abstract: "Benchmarks for scripts/bench: frame rendering, engine throughput, signing (the first frame is iapsim-first-frame's).",
        subcommands: [Frames.self, Engine.self, Sign.self])
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
        try options.settings.launch(latency: .instant, exitAfter: .products) { session, terminal, theme in
            let median = FrameBench.run(session: session, terminal: terminal, theme: theme, frames: frames)
            try Data(String(format: "%.3f\n", median).utf8).write(to: URL(fileURLWithPath: out))
        }
    }
}
