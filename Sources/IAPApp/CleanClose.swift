import DataFiles
import Foundation

extension DataDirectory {
    /// The party files iapsim last closed cleanly, as the lock file of this directory records them. Read after taking
    /// the lock: no other iapsim can have changed them since, and anything else that did moved their stamps.
    public func closedCleanly() -> Set<FileStamp> {
        guard let data = FileManager.default.contents(atPath: lockFile) else { return [] }
        return FileStamp.parse(String(decoding: data, as: UTF8.self))
    }

    /// Records `directory`'s party files (this directory's, or a scenario's under it) as closed cleanly, once the
    /// session on them is closed; a file whose WAL still holds pages is left out. Best effort: a record that cannot be written
    /// only costs the next launch its full checks.
    public func recordClosedCleanly(_ directory: DataDirectory) {
        let stamps = [directory.store, directory.backend, directory.keychain, directory.sandbox].compactMap(FileStamp.init(path:))
        let fd = Foundation.open(lockFile, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let text = Array(FileStamp.text(stamps).utf8)
        // Written over the record before, then cut to its length: a file emptied first (O_TRUNC) and written again is
        // one ext4 flushes to disk at close, which the quit would wait for. A write cut short leaves no record at all.
        let written = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        ftruncate(fd, written == text.count ? off_t(text.count) : 0)
    }
}
