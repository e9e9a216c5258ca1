import Foundation

/// Files a test writes, in a directory of their own that is removed with the suite's instance (one per test), so that
/// the tests leave nothing in the temporary directory.
final class Scratch: Sendable {
    let directory: URL

    init() {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("iapsim-scratch-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// `text` in a new file whose name ends with `name` (the catalog loader reads a `.storekit` file by its name).
    func write(_ text: String, named name: String) throws -> String {
        let path = directory.appendingPathComponent("\(UUID().uuidString)-\(name)").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }
}
