import Foundation

/// A data file as iapsim left it when it closed it cleanly: which file, and what the file system says about it.
/// Writing to a file moves its modification and change times (the change time cannot be set back from user space),
/// so a file whose stamp still matches has not been touched since: its checks at open have nothing new to find.
public struct FileStamp: Hashable, Sendable {
    let path: String
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modified: Int64
    let changed: Int64

    /// The file's stamp now; nil when it is missing, or when the WAL beside it holds pages, which says it was not closed
    /// cleanly (a clean close merges the WAL into the file and empties it).
    public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, !DataFile.holdsUnmergedWAL(path) else { return nil }
        self.path = path
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
    }

    init?(line: Substring) {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard fields.count == 6, let device = UInt64(fields[1]), let inode = UInt64(fields[2]), let size = Int64(fields[3]),
              let modified = Int64(fields[4]), let changed = Int64(fields[5]) else { return nil }
        path = String(fields[0])
        (self.device, self.inode, self.size, self.modified, self.changed) = (device, inode, size, modified, changed)
    }

    var line: String { "\(path)\t\(device)\t\(inode)\t\(size)\t\(modified)\t\(changed)" }

    /// Stamps as written by `text(_:)`; lines that do not read as one are skipped (they only cost a full check).
    public static func parse(_ text: String) -> Set<FileStamp> {
        Set(text.split(separator: "\n").compactMap { FileStamp(line: $0) })
    }

    public static func text(_ stamps: [FileStamp]) -> String {
        stamps.map { $0.line + "\n" }.joined()
    }
}

extension DataFile {
    /// Trusts files iapsim closed cleanly (the launcher reads their stamps from the data directory's lock file): opening
    /// one whose stamp still matches skips `check`, whose quick check reads every page of the file.
    public static func trust(_ stamps: Set<FileStamp>) {
        trusted.withLock { $0.formUnion(stamps) }
    }

    static func isUntouchedSinceCleanClose(_ path: String) -> Bool {
        guard let stamp = FileStamp(path: path) else { return false }
        return trusted.withLock { $0.contains(stamp) }
    }

    private static let trusted = Locked<Set<FileStamp>>([])
}

/// A value shared between threads (tests open data files in parallel).
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
