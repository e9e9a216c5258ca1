import Foundation

/// A file a person hands iapsim to read (a catalog, a script): read whole only when it is a regular file, so that a
/// named pipe waits for nobody and a device is not read for ever; otherwise what it is, in words.
public enum InputFile {
    public enum Problem: Error, Equatable {
        case missing
        case folder
        /// A named pipe, a device or a socket: what it is, in words ("a named pipe (FIFO)").
        case notAFile(String)
        /// The system's own words for why it cannot be read ("Permission denied").
        case unreadable(String)
    }

    /// Reads the file, or throws the problem said as one sentence for a file of `kind` ("catalog", "script"), with
    /// what to give instead (`hint`) when it is missing, a folder or not a file.
    public static func read(_ path: String, kind: String, hint: String) throws(Said) -> Data {
        do {
            return try read(path)
        } catch {
            let text = switch error {
            case .missing: "no such file; \(hint)"
            case .folder: "is a folder, not a \(kind); \(hint)"
            case let .notAFile(what): "is \(what), not a file; \(hint)"
            case let .unreadable(why): "cannot be read (\(why)); check its permissions"
            }
            throw Said(problem: error, text: text)
        }
    }

    /// A problem with its sentence.
    public struct Said: Error {
        public let problem: Problem
        public let text: String
    }

    /// What a file of `mode` (`stat`'s) is when it is not a regular file: a folder, a named pipe, a device, a socket.
    public static func notAFile(_ mode: mode_t) -> Problem? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: .folder
        case S_IFIFO: .notAFile("a named pipe (FIFO)")
        case S_IFCHR: .notAFile("a character device")
        case S_IFBLK: .notAFile("a block device")
        case S_IFSOCK: .notAFile("a socket")
        default: .notAFile("something other than a file")
        }
    }

    public static func read(_ path: String) throws(Problem) -> Data {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { throw .missing }
            throw .unreadable(String(cString: strerror(errno)))
        }
        if let problem = notAFile(info.st_mode) { throw problem }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw .unreadable(String(cString: strerror(errno))) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            return try handle.readToEnd() ?? Data()
        } catch {
            throw .unreadable((error as NSError).localizedDescription)
        }
    }
}
