import ArgumentParser
import IAPApp
import Launcher

/// Options every command that touches the data shares.
public struct DataOptions: ParsableArguments {
    @Option(name: .customLong("data-dir"), help: "Where the store, backend and client keep their databases (default: $XDG_DATA_HOME/iapsim, else ~/.local/share/iapsim).",
            completion: .directory)
    public var dataDir: String?

    public init() {}

    public var directory: DataDirectory { DataFolder.directory(dataDir) }
    public func lockedDirectory() -> DataDirectory { DataFolder.locked(dataDir) }
    public func sharedDirectory() -> DataDirectory { DataFolder.shared(dataDir) }
    public func givenOrDefaultDirectory() -> DataDirectory { DataFolder.givenOrDefault(dataDir) }
    public func existingDirectory() -> DataDirectory { DataFolder.existing(dataDir) }
}
