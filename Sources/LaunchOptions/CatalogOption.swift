import ArgumentParser
import IAPCore
import Launcher

public struct CatalogOption: ParsableArguments {
    @Option(help: "Product catalog: iapsim's JSON or an Xcode .storekit file (default: the shipped catalog).",
            completion: .file(extensions: ["json", "storekit"]))
    public var catalog: String?

    public init() {}

    /// The products, or a clear error naming the file and the problem.
    public func load() -> [Product] {
        CatalogFile.load(catalog)
    }
}
