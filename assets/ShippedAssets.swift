import Foundation

/// What the app ships beside its binary: the default catalog and the scenario scripts.
public enum ShippedAssets {
    /// Where SwiftPM copies this target's resources: a folder named after the package and the target.
    static let bundleName = "iapsim_ShippedAssets.resources"

    /// The resources beside the running executable, else this source folder (a binary run from a checkout);
    /// nil when neither is there. Found without `Bundle.module`, which stops the process when the bundle is missing,
    /// so that a binary copied away from its resources says what is missing instead.
    static let folder: String? = {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        var candidates: [String] = []
        if length > 0 {
            let executable = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            candidates.append(String(executable[..<(executable.lastIndex(of: "/") ?? executable.startIndex)]) + "/" + bundleName)
        }
        let source = #filePath
        candidates.append(String(source[..<(source.lastIndex(of: "/") ?? source.startIndex)]))
        return candidates.first { access($0 + "/catalog.json", R_OK) == 0 }
    }()

    public static var catalogPath: String? {
        folder.map { $0 + "/catalog.json" }
    }

    /// The folder of scenario scripts (`*.iapsim`), which QA can copy and edit.
    public static var scenariosPath: String? {
        folder.map { $0 + "/scenarios" }
    }
}
