import IAPCore

/// What a script asks of the catalog, checked before it runs: a product id not in it is a typo, which would otherwise
/// read as "not owned", and found mid-run it would leave the run's data behind.
extension Script {
    public func check(against catalog: [Product], file: String) throws {
        for line in steps {
            if let problem = Self.catalogProblem(of: line.step, in: catalog) {
                throw ScriptError(file: file, line: line.number, message: problem)
            }
        }
    }

    static func catalogProblem(of step: Step, in catalog: [Product]) -> String? {
        switch step {
        case let .priceIncrease(productId), let .expectSubscription(productId, _, _): productProblem(productId, subscription: true, in: catalog)
        case let .expectOwned(productId, _, _): productProblem(productId, subscription: false, in: catalog)
        case let .select(kind, ordinal): selectProblem(kind, ordinal, among: catalog)
        default: nil
        }
    }

    static func productProblem(_ productId: String, subscription: Bool, in catalog: [Product]) -> String? {
        guard let product = catalog.first(where: { $0.id == productId }) else { return "no product \(productId) in the catalog" }
        return subscription && product.subscription == nil ? "\(productId) is not an auto-renewable subscription" : nil
    }

    static func selectProblem(_ kind: Product.Kind, _ ordinal: Int, among products: [Product]) -> String? {
        let count = products.filter { $0.kind == kind }.count
        guard count < ordinal else { return nil }
        return count == 0 ? "the catalog has no \(kind.rawValue) product (this script needs one)"
                          : "the catalog has \(count == 1 ? "one \(kind.rawValue) product" : "\(count) \(kind.rawValue) products"), not \(ordinal)"
    }
}
