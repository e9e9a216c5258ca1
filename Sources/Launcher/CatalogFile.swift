import IAPCore
import MockStore
import ShippedAssets

/// The catalog a launch or a command reads: a given file (iapsim's JSON or an Xcode .storekit file), else the shipped one.
public enum CatalogFile {
    /// The products of the catalog at `path` (nil: the shipped one), or a clear error naming the file and the problem.
    public static func load(_ path: String?) -> [Product] {
        imported(path).products
    }

    /// The catalog with its settings and warnings, or a clear error naming the file and the problem.
    public static func imported(_ path: String?) -> LoadedCatalog {
        imported(read(path))
    }

    /// A catalog read as `read` gives it, or its failure said.
    static func imported(_ read: Result<LoadedCatalog, Unusable>) -> LoadedCatalog {
        switch read {
        case let .success(catalog): catalog
        case let .failure(unusable): Console.fail(unusable.message)
        }
    }

    /// The catalog with its settings and warnings, or what to say of it: without saying it, for a thread that may not.
    static func read(_ path: String?) -> Result<LoadedCatalog, Unusable> {
        guard let path = path ?? ShippedAssets.catalogPath else { return .failure(Unusable(message: "the shipped catalog is missing beside the binary")) }
        do {
            return .success(try CatalogLoader.importCatalog(path: path))
        } catch {
            return .failure(Unusable(message: "bad catalog: \(error)"))
        }
    }

    struct Unusable: Error {
        let message: String
    }

    /// Says on stderr, one line each, what the catalog asked for that iapsim could not use: never dropped silently.
    public static func warn(_ catalog: LoadedCatalog, path: String?) {
        let name = path ?? "the shipped catalog"
        for warning in catalog.warnings {
            Console.warn("\(name): \(warning)")
        }
    }
}
