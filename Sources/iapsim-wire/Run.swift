import ArgumentParser
import LaunchOptions
import Launcher

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Start the app (the default command).")

    @OptionGroup var options: RunOptions

    func run() throws {
        try options.settings.launch()
    }
}
