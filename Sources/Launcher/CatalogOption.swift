import ArgumentParser
import Foundation
import IAPCore
import MockStore
import ShippedAssets

public struct CatalogOption: ParsableArguments {
    @Option(help: "Product catalog: iapsim's JSON or an Xcode .storekit file (default: the shipped catalog).",
            completion: .file(extensions: ["json", "storekit"]))
    public var catalog: String?

    public init() {}

    /// The products, or a clear error naming the file and the problem.
    public func load() -> [Product] {
        Self.load(catalog)
    }

    /// The products of the catalog at `path` (nil: the shipped one), or a clear error naming the file and the problem.
    public static func load(_ path: String?) -> [Product] {
        imported(path).products
    }

    /// The catalog with its settings and warnings, or a clear error naming the file and the problem.
    public static func imported(_ path: String?) -> LoadedCatalog {
        guard let path = path ?? ShippedAssets.catalogPath else { Console.fail("the shipped catalog is missing beside the binary") }
        do {
            return try CatalogLoader.importCatalog(path: path)
        } catch {
            Console.fail("bad catalog: \(error)")
        }
    }

    /// Says on stderr, one line each, what the catalog asked for that iapsim could not use: never dropped silently.
    public static func warn(_ catalog: LoadedCatalog, path: String?) {
        let name = path ?? "the shipped catalog"
        for warning in catalog.warnings {
            Console.warn("\(name): \(warning)")
        }
    }
}
