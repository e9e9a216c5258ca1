import ArgumentParser
import Foundation
import IAPApp
import IAPCore
import LaunchOptions
import Launcher

/// Purchase → verify → finish cycles per second, headless and durable.
struct Engine: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "engine", abstract: "Print purchase → verify → finish cycles per second.")

    @Option var cycles = 500
    @Option(name: .customLong("data-dir")) var dataDir: String
    @OptionGroup var catalog: CatalogOption

    func run() throws {
        let directory = DataDirectory(path: dataDir)
        _ = try directory.removeAll()
        let session = try AppSession(directory: directory, catalog: catalog.load(), user: "alice", latency: .instant)
        session.settle()
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            for _ in 0..<cycles {
                session.press(.enter)
                session.settle()
                guard session.state.hud?.kind == .success else {
                    throw ValidationError("a cycle did not end in Purchase complete: \(String(describing: session.state.hud))")
                }
                session.press(.escape)
            }
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print(String(format: "%.1f", Double(cycles) / seconds))
    }
}
