import IAPApp

/// The data directory a launch or a command works in: `--data-dir` as given (nil: the user's data directory).
public enum DataFolder {
    public static func directory(_ dataDir: String?) -> DataDirectory {
        DataDirectory(path: dataDir ?? DataDirectory.defaultPath())
    }

    /// The directory, created if needed and locked for this process; says why and exits when it cannot be used or
    /// another iapsim holds it. Until `Console.keepWhatWasMade()`, a failure removes what this created.
    public static func locked(_ dataDir: String?) -> DataDirectory {
        let directory = directory(dataDir)
        guard claim(directory) else { Console.fail("another iapsim is using \(directory.path); quit it first") }
        return directory
    }

    /// The directory for a command that can work beside a running iapsim (`keys`, `certs`, `receipt`, while the app
    /// or `serve` answers a team's server): locked for this process when free, as `locked`; when another iapsim holds
    /// it, shared with that one, which has already opened and migrated its files, and SQLite's own locks keep the two
    /// writers apart.
    public static func shared(_ dataDir: String?) -> DataDirectory {
        let directory = directory(dataDir)
        _ = claim(directory)
        return directory
    }

    /// `shared`, for a command that makes what a data directory keeps (`keys`, `certs`): a folder given with
    /// --data-dir must exist, so that a mistyped path is refused rather than filled; the default one is made.
    public static func givenOrDefault(_ dataDir: String?) -> DataDirectory {
        if dataDir != nil { _ = existing(dataDir) }
        return shared(dataDir)
    }

    /// An existing data directory (state, reset), or a clear failure.
    public static func existing(_ dataDir: String?) -> DataDirectory {
        let directory = directory(dataDir)
        do { try directory.checkExisting() } catch { Console.fail(error) }
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
}
