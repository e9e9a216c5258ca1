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

    /// Deletes every party's database (with its WAL files), every device's included; returns the names removed.
    public func removeAll() throws -> [String] {
        let first = on(device: StoreDatabase.firstDevice)
        var removed = try remove([store, backend, first.keychain, first.sandbox])
        if FileManager.default.fileExists(atPath: devices) {
            try FileManager.default.removeItem(atPath: devices)
            removed.append("devices/")
        }
        return removed
    }

    /// What deleting the app does (C11): the sandbox goes; the keychain and Apple's queue stay.
    @discardableResult
    public func removeSandbox() throws -> [String] {
        try remove([sandbox])
    }

    private func remove(_ files: [String]) throws -> [String] {
        for file in files {
            for path in [file, file + "-wal", file + "-shm"] {
                if let pid = Self.holder(of: path) {
                    throw DataDirectoryError(description: "\((file as NSString).lastPathComponent) is open in another program (pid \(pid)); close it, then run again — nothing was removed")
                }
            }
        }
        var removed: [String] = []
        for file in files {
            for path in [file, file + "-wal", file + "-shm"] where FileManager.default.fileExists(atPath: path) {
                try FileManager.default.removeItem(atPath: path)
                removed.append((path as NSString).lastPathComponent)
            }
        }
        return removed
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
