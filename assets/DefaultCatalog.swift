import Foundation

/// The catalog the app ships with (`catalog.json` beside this file).
public enum DefaultCatalog {
    public static var path: String? {
        Bundle.module.path(forResource: "catalog", ofType: "json")
    }
}
