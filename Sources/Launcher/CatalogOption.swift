import ArgumentParser
import IAPCore
import MockStore
import ShippedAssets

public struct CatalogOption: ParsableArguments {
    @Option(help: "Product catalog: iapsim's JSON or an Xcode .storekit file (default: the shipped catalog).")
    public var catalog: String?

    public init() {}

    /// The products, or a clear error naming the file and the problem.
    public func load() -> [Product] {
        Self.load(catalog)
    }

    /// The products of the catalog at `path` (nil: the shipped one), or a clear error naming the file and the problem.
    public static func load(_ path: String?) -> [Product] {
        guard let path = path ?? ShippedAssets.catalogPath else { Console.fail("the shipped catalog is missing beside the binary") }
        do {
            return try CatalogLoader.load(path: path)
        } catch {
            Console.fail("bad catalog: \(error)")
        }
    }
}
