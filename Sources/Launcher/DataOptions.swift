import ArgumentParser
import IAPApp

/// Options every command that touches the data shares.
public struct DataOptions: ParsableArguments {
    @Option(name: .customLong("data-dir"), help: "Where the store, backend and client keep their databases (default: $XDG_DATA_HOME/iapsim, else ~/.local/share/iapsim).",
            completion: .directory)
    public var dataDir: String?

    public init() {}

    public var directory: DataDirectory { Self.directory(dataDir) }

    static func directory(_ dataDir: String?) -> DataDirectory {
        DataDirectory(path: dataDir ?? DataDirectory.defaultPath())
    }

    /// The directory, created if needed and locked for this process; says why and exits when it cannot be used or
    /// another iapsim holds it. Until `Console.keepWhatWasMade()`, a failure removes what this created.
    public func lockedDirectory() -> DataDirectory {
        Self.lockedDirectory(dataDir)
    }

    static func lockedDirectory(_ dataDir: String?) -> DataDirectory {
        let directory = directory(dataDir)
        guard claim(directory) else { Console.fail("another iapsim is using \(directory.path); quit it first") }
        return directory
    }

    /// The directory for a command that can work beside a running iapsim (`keys`, `certs`, `receipt`, while the app
    /// or `serve` answers a team's server): locked for this process when free, as `lockedDirectory`; when another
    /// iapsim holds it, shared with that one, which has already opened and migrated its files, and SQLite's own locks
    /// keep the two writers apart.
    public func sharedDirectory() -> DataDirectory {
        _ = Self.claim(directory)
        return directory
    }

    /// Creates the directory if needed and takes its lock; false when another iapsim holds it. Says why and exits when
    /// it cannot be used; until `Console.keepWhatWasMade()`, a failure removes what this created.
    private static func claim(_ directory: DataDirectory) -> Bool {
        let claim: DataDirectoryClaim?
        do { claim = try directory.claim() } catch { Console.fail(error) }
        Console.undoOnFailure = claim?.undo
        return claim != nil
    }

    /// `sharedDirectory`, for a command that makes what a data directory keeps (`keys`, `certs`): a folder given with
    /// --data-dir must exist, so that a mistyped path is refused rather than filled; the default one is made.
    public func givenOrDefaultDirectory() -> DataDirectory {
        if dataDir != nil { _ = existingDirectory() }
        return sharedDirectory()
    }

    /// An existing data directory (state, reset), or a clear failure.
    public func existingDirectory() -> DataDirectory {
        do { try directory.checkExisting() } catch { Console.fail(error) }
        return directory
    }
}
