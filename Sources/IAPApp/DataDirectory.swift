import DataFiles
import Foundation
import MockStore

/// Where each party keeps its file. The store and the backend are Apple's servers and the app's: one of each, whichever
/// device runs the app. The keychain and the sandbox are the device's: the first device keeps them where they always
/// were, any other has them under `devices/NAME/`.
public struct DataDirectory: Sendable {
    public let path: String
    /// The device the app is installed on.
    public let device: String

    public init(path: String, device: String = StoreDatabase.firstDevice) {
        self.path = path
        self.device = device
    }

    /// The same data on another device of the same accounts.
    public func on(device: String) -> DataDirectory {
        DataDirectory(path: path, device: device)
    }

    private var devices: String { path + "/devices" }

    /// The devices the app has run on here: the first one always, then each under `devices/`, by name.
    public var deviceNames: [String] {
        [StoreDatabase.firstDevice] + ((try? FileManager.default.contentsOfDirectory(atPath: devices)) ?? []).sorted()
    }
    private var deviceFolder: String { device == StoreDatabase.firstDevice ? path : devices + "/" + device }

    /// `$XDG_DATA_HOME/iapsim`, else `~/.local/share/iapsim`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty { return xdg + "/iapsim" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/iapsim"
    }

    public var store: String { path + "/store.sqlite" }
    public var backend: String { path + "/backend.sqlite" }
    /// Survives a reinstall, as the iOS keychain does.
    public var keychain: String { deviceFolder + "/client-keychain.sqlite" }
    /// Wiped on reinstall, as the app's sandbox is.
    public var sandbox: String { deviceFolder + "/client-sandbox.sqlite" }
    var lockFile: String { path + "/iapsim.lock" }

    /// The four files this device's parties open, each with the WAL and shared-memory files SQLite makes beside it.
    var openedFiles: [String] { Self.withSideFiles([store, backend, keychain, sandbox]) }

    static func withSideFiles(_ files: [String]) -> [String] {
        files.flatMap { [$0, $0 + "-wal", $0 + "-shm"] }
    }

    /// Every party's file there is, on every device, with whose it is.
    private var partyFiles: [(path: String, identity: DataFileIdentity)] {
        let devices = deviceNames.map(on(device:))
        let files: [(path: String, identity: DataFileIdentity)] = [(store, .store), (backend, .backend)]
            + devices.map { ($0.keychain, .keychain) } + devices.map { ($0.sandbox, .sandbox) }
        return files.filter { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// Whether any party's file is there: `reset` has something to clear.
    public var holdsData: Bool { !partyFiles.isEmpty }

    /// Deletes every party's database (with its WAL files), every device's included; returns the names removed. All
    /// or nothing: every file is checked first, and a corrupt or foreign one (or one a newer iapsim wrote) is named and
    /// nothing is removed; a device's folder goes only when nothing else is left in it.
    public func removeAll() throws -> [String] {
        let files = partyFiles
        for (file, identity) in files {
            do { try DataFile.inspect(file, as: identity) } catch {
                throw DataDirectoryError(description: "\(error); nothing was removed")
            }
        }
        let removed = try remove(files.map(\.path))
        // rmdir removes only an empty folder: whatever else is there stays, and so does its folder.
        let folders = deviceNames.dropFirst().filter { rmdir(devices + "/" + $0) == 0 }.map { "devices/\($0)/" }
        return removed + (rmdir(devices) == 0 ? ["devices/"] : folders)
    }

    /// What deleting the app does (C11): the sandbox goes; the keychain and Apple's queue stay.
    @discardableResult
    public func removeSandbox() throws -> [String] {
        try remove([sandbox])
    }

    /// Removes the files and their WAL files, all or none: each is first moved into a folder of its own beside them,
    /// and moved back if one cannot be (a read-only folder, an immutable file).
    private func remove(_ files: [String]) throws -> [String] {
        for file in files {
            for path in [file, file + "-wal", file + "-shm"] {
                if let pid = Self.holder(of: path) {
                    throw DataDirectoryError(description: "\((file as NSString).lastPathComponent) is open in another program (pid \(pid)); close it, then run again — nothing was removed")
                }
            }
        }
        let present = Self.withSideFiles(files).filter(Self.exists)
        // A folder where a file belongs is someone's, not SQLite's: removing it would take what is in it.
        if let folder = present.first(where: { Self.isFolder($0) == true }) {
            throw DataDirectoryError(description: "\(folder) is a folder, not a file iapsim made; move it away, then run again — nothing was removed")
        }
        guard !present.isEmpty else { return [] }
        let aside = path + "/.removing-\(getpid())"
        guard mkdir(aside, 0o700) == 0 else {
            throw DataDirectoryError(description: "\(path): cannot be changed (\(String(cString: strerror(errno)))); check the folder's permissions (ls -ld) — nothing was removed")
        }
        var moved: [String] = []
        for file in present {
            guard rename(file, aside + "/\(moved.count)") == 0 else {
                let reason = String(cString: strerror(errno))
                for (index, back) in moved.enumerated().reversed() { rename(aside + "/\(index)", back) }
                rmdir(aside)
                throw DataDirectoryError(description: "\(file): cannot be removed (\(reason)); check its and its folder's permissions (ls -l, lsattr) — nothing was removed")
            }
            moved.append(file)
        }
        try? FileManager.default.removeItem(atPath: aside)
        // Named by their place in the folder: two devices have files of the same name.
        return moved.map { $0.hasPrefix(path + "/") ? String($0.dropFirst(path.count + 1)) : ($0 as NSString).lastPathComponent }
    }

    /// The process holding a lock on the file (SQLite's locks are POSIX record locks), if another one does.
    static func holder(of path: String) -> pid_t? {
        let fd = Foundation.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 0
        lock.l_len = 0
        guard fcntl(fd, F_GETLK, &lock) == 0, lock.l_type != Int16(F_UNLCK) else { return nil }
        return lock.l_pid
    }

    /// Holds an exclusive lock on the directory while the app runs; nil when another iapsim holds it.
    public func lock() throws -> Int32? {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let fd = Foundation.open(lockFile, O_RDWR | O_CREAT, 0o644)
        guard fd >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: lockFile]) }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            close(fd)
            return nil
        }
        return fd
    }
}
