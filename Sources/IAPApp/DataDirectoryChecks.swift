import Foundation

/// A data directory that cannot be used, said in one line with what to do.
public struct DataDirectoryError: Error, CustomStringConvertible {
    public let description: String
}

/// What taking a data directory created, so that a command that fails before it starts can leave nothing behind.
public struct DataDirectoryClaim {
    public let lock: Int32
    /// Folders this process created, outermost first.
    public let createdFolders: [String]
    public let createdLockFile: Bool
    /// Party files (with their WAL and SHM) that did not exist before.
    let newFiles: [String]

    /// Removes what the claim created: the new party files, the lock file, then the new folders (only if empty).
    public func undo() {
        for file in newFiles { unlink(file) }
        if createdLockFile { unlink(newFilesLockPath) }
        for folder in createdFolders.reversed() { rmdir(folder) }
    }

    fileprivate let newFilesLockPath: String
}

extension DataDirectory {
    /// The longest path and folder name Linux takes.
    static let longestPath = Int(PATH_MAX) - 1, longestName = Int(NAME_MAX)

    /// Checks the path as given, creating nothing: not empty, not too long, no part of it a file.
    public func checkPath(option: String = "--data-dir") throws(DataDirectoryError) {
        guard !path.isEmpty else { throw DataDirectoryError(description: "\(option) is an empty path; give a folder (\(option) DIR)") }
        if path.utf8.count > Self.longestPath || path.split(separator: "/").contains(where: { $0.utf8.count > Self.longestName }) {
            throw DataDirectoryError(description: "\(path): too long a path (at most \(Self.longestName) bytes a folder name, \(Self.longestPath) in all); give a shorter \(option)")
        }
        var prefix = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            // Not `"/" + part`: `+` over any sequence, whose first use at launch reads every conformance record in the binary.
            prefix += "/" + String(part)
            let shown = { prefix.hasPrefix("./") && !path.hasPrefix("./") ? String(prefix.dropFirst(2)) : prefix }
            guard let isFolder = Self.isFolder(prefix) else {
                let failure = errno
                // A link to nothing is there to `ls`: "no such file" of it would send the reader looking for a typo.
                if let target = Self.linkTarget(prefix) {
                    let folder = Self.parent(of: prefix).isEmpty ? "." : Self.parent(of: prefix)
                    let read = target.hasPrefix("/") ? target : "\(target) (\(folder)/\(target))"
                    throw DataDirectoryError(description: failure == ELOOP
                        ? "\(shown()) is a symbolic link to \(read), which leads back round a loop of links; give a folder (\(option) DIR)"
                        : "\(shown()) is a symbolic link to \(read), which does not exist; make that folder, or give another (\(option) DIR)")
                }
                break
            }
            if !isFolder {
                throw DataDirectoryError(description: "\(shown()) is a file, not a folder; give a folder (\(option) DIR)")
            }
        }
    }

    /// For commands that only look (state) or clear (reset): the folder must already be there.
    public func checkExisting() throws(DataDirectoryError) {
        try checkPath()
        guard let isFolder = Self.isFolder(path) else {
            throw DataDirectoryError(description: "\(path): no such folder; check the path (--data-dir DIR)")
        }
        guard isFolder else { throw DataDirectoryError(description: "\(path) is a file, not a folder; give the data folder (--data-dir DIR)") }
        guard access(path, R_OK | X_OK) == 0 else {
            throw DataDirectoryError(description: "\(path): cannot read this folder (\(String(cString: strerror(errno)))); check its permissions")
        }
    }

    /// Whether `path` names a folder (false: something else), nil when it names nothing. Asked of the file system
    /// directly: Foundation's `FileManager`, at its first use, would make the launch screen wait for its setting up.
    static func isFolder(_ path: String) -> Bool? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return status.st_mode & S_IFMT == S_IFDIR
    }

    /// Where the symbolic link at `path` points, as it is written; nil when `path` is not a link.
    static func linkTarget(_ path: String) -> String? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return nil }
        var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &target, Int(PATH_MAX))
        guard count >= 0 else { return nil }
        return String(decoding: target[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func exists(_ path: String) -> Bool {
        isFolder(path) != nil
    }

    /// The folder `path` is in: "" for a name alone (the current folder), "/" for one at the root. Foundation's
    /// `deletingLastPathComponent` traps on a one-letter relative path (`--data-dir d`).
    public static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Whether no iapsim holds the directory now (its lock is free): no process of ours is writing its files.
    var isUnused: Bool {
        // flock, as the claim takes it: a lock of the open file, which closing this descriptor does not touch elsewhere.
        let fd = Foundation.open(lockFile, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return errno == ENOENT }
        defer { close(fd) }
        guard flock(fd, LOCK_SH | LOCK_NB) == 0 else { return false }
        flock(fd, LOCK_UN)
        return true
    }

    /// Creates the folder if needed and takes the lock; nil when another iapsim holds it (what was created is undone).
    public func claim() throws(DataDirectoryError) -> DataDirectoryClaim? {
        try checkPath()
        var created: [String] = []
        var missing: [String] = []
        var folder = path
        while !folder.isEmpty, folder != "/", folder != ".", !Self.exists(folder) {
            missing.insert(folder, at: 0)
            folder = Self.parent(of: folder)
        }
        for folder in missing {
            guard mkdir(folder, 0o755) == 0 || errno == EEXIST else {
                let reason = String(cString: strerror(errno))
                for made in created.reversed() { rmdir(made) }
                throw DataDirectoryError(description: "cannot create \(folder) (\(reason)); give a folder you can write to (--data-dir DIR)")
            }
            created.append(folder)
        }
        let lockExisted = Self.exists(lockFile)
        let newFiles = openedFiles.filter { !Self.exists($0) }
        let fd = Foundation.open(lockFile, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            for made in created.reversed() { rmdir(made) }
            throw DataDirectoryError(description: "cannot write in \(path) (\(reason)); give a folder you can write to (--data-dir DIR)")
        }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            // Another iapsim has it: touch none of its files.
            close(fd)
            return nil
        }
        return DataDirectoryClaim(lock: fd, createdFolders: created, createdLockFile: !lockExisted, newFiles: newFiles, newFilesLockPath: lockFile)
    }
}
