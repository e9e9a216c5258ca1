import Foundation

/// What the app ships beside its binary: the default catalog and the scenario scripts.
public enum ShippedAssets {
    public static var catalogPath: String? {
        Bundle.module.path(forResource: "catalog", ofType: "json")
    }

    /// The folder of scenario scripts (`*.iapsim`), which QA can copy and edit.
    public static var scenariosPath: String? {
        Bundle.module.path(forResource: "scenarios", ofType: nil)
    }
}
