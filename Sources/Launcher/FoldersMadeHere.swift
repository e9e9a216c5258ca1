import Foundation

/// The folders a launch may make inside its data folder besides the folder's own files (a device's, a scenario's),
/// noted before it opens anything, so that a failure removes what it made there and nothing else.
struct FoldersMadeHere {
    private static let parents = ["devices", "scenarios"]
    private let folder: String
    /// Each parent that existed, with what it held.
    private let found: [String: Set<String>]

    init(in folder: String) {
        self.folder = folder
        found = Dictionary(uniqueKeysWithValues: Self.parents.compactMap { parent in
            (try? FileManager.default.contentsOfDirectory(atPath: folder + "/" + parent)).map { (parent, Set($0)) }
        })
    }

    /// Until `Console.keepWhatWasMade()`, a failure removes what the launch made here, then what its claim made.
    func removedOnFailure() {
        let undoClaim = Console.undoOnFailure
        Console.undoOnFailure = {
            removeNew()
            undoClaim?()
        }
    }

    private func removeNew() {
        for parent in Self.parents {
            let path = folder + "/" + parent
            guard let held = found[parent] else {
                try? FileManager.default.removeItem(atPath: path)
                continue
            }
            for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] where !held.contains(name) {
                try? FileManager.default.removeItem(atPath: path + "/" + name)
            }
        }
    }
}
