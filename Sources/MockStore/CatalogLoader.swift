import DataFiles
import Foundation
import IAPCore

/// A catalog that cannot be used: which file, where in it, and what is wrong.
public struct CatalogError: Error, CustomStringConvertible {
    public let path: String
    public let location: String
    public let problem: String

    public var description: String {
        location.isEmpty ? "\(path): \(problem)" : "\(path): \(location): \(problem)"
    }

    func adding(_ more: String) -> CatalogError {
        CatalogError(path: path, location: location, problem: problem + more)
    }
}

/// Reads the app's own catalog format, or an Xcode `.storekit` configuration file.
public enum CatalogLoader {
    public static func load(path: String) throws -> [Product] {
        try importCatalog(path: path).products
    }

    /// The catalog with everything the file asks for and every warning about what iapsim could not use of it.
    public static func importCatalog(path: String) throws -> LoadedCatalog {
        let data: Data
        do {
            data = try InputFile.read(path, kind: "catalog", hint: whatToGive + " (--catalog FILE)")
        } catch {
            throw CatalogError(path: path, location: "", problem: error.text)
        }
        if firstVisible(data) == nil {
            throw CatalogError(path: path, location: "", problem: "is empty; " + whatToGive)
        }
        if isPropertyList(data) {
            throw CatalogError(path: path, location: "", problem: "is a property list (an older Xcode's .storekit), not JSON; open it in Xcode 12.5 or later and save it: Xcode writes it again as JSON")
        }
        if firstVisible(data) != UInt8(ascii: "{"), let top = try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed),
           !(top is [String: Any]) {
            throw CatalogError(path: path, location: "", problem: "the top level is not an object; give iapsim's catalog JSON ({\"products\": [...]}) or an Xcode .storekit file")
        }
        var loaded: LoadedCatalog
        // Said beside a mistake in a file taken for Xcode's: a catalog of iapsim's with one Xcode key would otherwise be
        // told of Xcode's keys without knowing why.
        var readAs = ""
        do {
            let decoder = JSONDecoder()
            if let reason = (try? decoder.decode(CatalogFormat.self, from: data))?.storeKitReason {
                readAs = " — read as an Xcode .storekit file, as " + reason
                loaded = try decoder.decode(StoreKitFile.self, from: data).catalog()
                let keys = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
                loaded.warnings += StoreKitFileKeys.file.unused(in: keys, at: "")
            } else if let file = try? decoder.decode(CatalogFile.self, from: data), file.products.allSatisfy(\.coinsInRange) {
                loaded = try catalog(file)
            } else {
                // A mistake, read the long way to name it as the file wrote it: on the raw JSON, a number too big for
                // an Int is named with its range rather than called bad JSON. A file that reads well skips this, as
                // building and casting the raw JSON's objects is most of a catalog's reading.
                try checkCoins(try JSONSerialization.jsonObject(with: data))
                loaded = try catalog(try decoder.decode(CatalogFile.self, from: data))
            }
            loaded.products = loaded.products.map { $0.withGracePeriod(loaded.billingGracePeriod).withOffersKey(loaded.offersKey) }
        } catch let error as DecodingError {
            throw describe(error, path: path).adding(readAs)
        } catch let error as Problem {
            throw CatalogError(path: path, location: error.location, problem: error.message + readAs)
        } catch {
            throw CatalogError(path: path, location: "", problem: "is not valid JSON (\(underlyingMessage(error))); " + whatToGive)
        }
        try applyGrants(to: &loaded, catalogPath: path)
        do {
            try validate(loaded, path: path)
        } catch let error as CatalogError {
            throw error.adding(readAs)
        }
        return loaded
    }

    private static func catalog(_ file: CatalogFile) throws -> LoadedCatalog {
        var loaded = LoadedCatalog(products: try file.products.enumerated().map { try $0.element.product(at: "products[\($0.offset)]", currency: file.currency) })
        loaded.currency = file.currency
        loaded.billingGracePeriod = file.billingGracePeriod ?? true
        return loaded
    }

    private static let whatToGive = "give iapsim's catalog JSON or an Xcode .storekit file"

    /// Where a catalog's consumables may be mapped to coins: `Products.storekit` → `Products.grants.json` beside it,
    /// `{"com.example.gems100": 100}`. Without it a .storekit consumable grants one unit of itself.
    public static func grantsPath(for catalogPath: String) -> String {
        ((catalogPath as NSString).deletingPathExtension) + ".grants.json"
    }

    private static func applyGrants(to loaded: inout LoadedCatalog, catalogPath: String) throws {
        let path = grantsPath(for: catalogPath)
        let data: Data
        do {
            data = try InputFile.read(path, kind: "grants file", hint: "remove it or make it a file")
        } catch {
            if error.problem == .missing { return }  // a grants file is optional
            throw CatalogError(path: path, location: "", problem: error.text)
        }
        let grants: [String: Int]
        do {
            grants = try JSONDecoder().decode([String: Int].self, from: data)
        } catch {
            throw CatalogError(path: path, location: "", problem: "is not a map of product ids to whole numbers of coins, e.g. {\"com.example.gems100\": 100}")
        }
        for (id, coins) in grants.sorted(by: { $0.key < $1.key }) {
            guard coinRange.contains(coins) else {
                throw CatalogError(path: path, location: id, problem: notCoins(coins))
            }
            guard let index = loaded.products.firstIndex(where: { $0.id == id }) else {
                loaded.warnings.append("\((path as NSString).lastPathComponent): \(id) is not in the catalog; ignored")
                continue
            }
            let product = loaded.products[index]
            guard product.kind.isConsumable else {
                loaded.warnings.append("\((path as NSString).lastPathComponent): \(id) is not a consumable; only consumables grant coins")
                continue
            }
            loaded.products[index] = Product(id: product.id, kind: product.kind, title: product.title, summary: product.summary,
                                             price: product.price, coins: coins, subscription: product.subscription, amount: product.amount)
        }
    }

    /// The first byte that is not ASCII white space; nil for a file of nothing else.
    private static func firstVisible(_ data: Data) -> UInt8? {
        data.first { !(0x09...0x0D).contains($0) && $0 != 0x20 }
    }

    /// Whether the file is a property list: binary, or XML after any white space. A file whose first byte that is not
    /// an ASCII space is another ASCII character is not, without Foundation's trimming (through NSString) to say so.
    private static func isPropertyList(_ data: Data) -> Bool {
        if data.starts(with: "bplist".utf8) { return true }
        if let first = firstVisible(data), first < 0x80, first != UInt8(ascii: "<") {
            return false
        }
        return String(decoding: data.prefix(256), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("<?xml")
    }

    /// Whether `text` is empty or white space (`CharacterSet.whitespaces`) only. A letter, digit, punctuation mark or
    /// symbol, which no white space is, says not at once, without Foundation's trimming (through NSString).
    static func isBlank(_ text: String) -> Bool {
        if text.unicodeScalars.contains(where: isVisible) { return false }
        return text.trimmingCharacters(in: .whitespaces).isEmpty
    }

    private static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber,
             .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
             .finalPunctuation, .otherPunctuation, .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol: true
        default: false
        }
    }

    /// Whether a file is an Xcode configuration rather than iapsim's catalog: it has subscription groups, or products
    /// named by `productID`. Read by the decoder, without the raw JSON's objects.
    private struct CatalogFormat: Decodable {
        /// Why the file is taken for an Xcode configuration, said beside its mistakes; nil for iapsim's catalog.
        let storeKitReason: String?

        private enum Key: String, CodingKey { case subscriptionGroups, nonRenewingSubscriptions, products, productID }

        init(from decoder: any Decoder) throws {
            let root = try decoder.container(keyedBy: Key.self)
            if let key = [Key.subscriptionGroups, .nonRenewingSubscriptions].first(where: root.contains) {
                storeKitReason = "it has \"\(key.rawValue)\""
                return
            }
            guard var products = try? root.nestedUnkeyedContainer(forKey: .products),
                  let first = try? products.nestedContainer(keyedBy: Key.self), first.contains(.productID) else {
                storeKitReason = nil
                return
            }
            storeKitReason = "its products are named by \"productID\""
        }
    }

    /// The most coins one product may credit: a balance of many purchases stays far from overflowing.
    public static let mostCoins = 1_000_000
    static let coinRange = 0...mostCoins

    /// What is said of a number of coins out of `coinRange`, as the file wrote it.
    private static func notCoins(_ written: Any) -> String {
        "takes a whole number 0 to \(mostCoins), not \(written)"
    }

    private static func validate(_ loaded: LoadedCatalog, path: String) throws {
        let products = loaded.products
        guard !products.isEmpty else {
            // Say why when every product was skipped: "no products" alone sends the reader looking.
            let skipped = loaded.skipped
            throw CatalogError(path: path, location: "products",
                               problem: skipped.isEmpty ? "no products: the catalog defines none, so there is nothing to sell; add one, or give another catalog"
                                : "no products iapsim can use (\(skipped.joined(separator: " · ")))")
        }
        var seen = Set<String>()
        for (i, product) in products.enumerated() {
            if isBlank(product.id) {
                throw CatalogError(path: path, location: "products[\(i)]", problem: "blank product id; give the id the store sells it by")
            }
            if product.id.holdsInvisible {
                throw CatalogError(path: path, location: "products[\(i)]", problem: "product id \"\(product.id.visiblyEscaped)\" holds a space, a tab, a line break "
                                   + "or an invisible character, which no App Store product id has; write it without")
            }
            if !seen.insert(product.id).inserted {
                throw CatalogError(path: path, location: "products[\(i)]", problem: "duplicate product id \"\(product.id)\"")
            }
            let place = "products[\(i)] \"\(product.id)\""
            for (field, text) in [("title", product.title), ("price", product.price)] {
                for lang in Language.allCases where isBlank(text[lang]) {
                    throw CatalogError(path: path, location: "\(place).\(field)", problem: "empty (\(lang.rawValue)); give the \(field) a person sees")
                }
            }
            for (field, text) in [("title", product.title), ("description", product.summary), ("price", product.price)] {
                for lang in Language.allCases where text[lang].holdsControl {
                    throw CatalogError(path: path, location: "\(place).\(field)", problem: "\"\(text[lang].visiblyEscaped)\" (\(lang.rawValue)) holds a tab or line break, "
                                       + "which would break the screen's line; write it on one line")
                }
            }
            for lang in Language.allCases {
                let price = product.price[lang]
                if !CatalogFile.isPrice(price) {
                    throw CatalogError(path: path, location: "\(place).price", problem: CatalogFile.notAPrice(price))
                }
            }
            if !coinRange.contains(product.coins) {
                throw CatalogError(path: path, location: "\(place).coins", problem: notCoins(product.coins))
            }
        }
    }

    private static func checkCoins(_ object: Any) throws {
        guard let root = object as? [String: Any],
              let entries = root["products"] as? [[String: Any]] else { return }
        for (i, entry) in entries.enumerated() {
            guard let value = entry["coins"], !(value is NSNull) else { continue }
            let place = "products[\(i)]" + ((entry["id"] as? String).map { " \"\($0)\"" } ?? "") + ".coins"
            // JSONSerialization reads true and false as NSNumbers too, of C's char type, which no JSON number gets.
            guard let number = value as? NSNumber, !(value is String), String(cString: number.objCType) != "c" else {
                throw Problem(location: place, message: notCoins(asWritten(value)))
            }
            let double = number.doubleValue
            guard double.isFinite, double.rounded() == double, double >= 0, double <= Double(mostCoins) else {
                throw Problem(location: place, message: notCoins(number))
            }
        }
    }

    /// A JSON value as a file would write it: a string in quotes, an object in braces.
    private static func asWritten(_ value: Any) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys]) else { return "\(value)" }
        return String(decoding: data, as: UTF8.self)
    }

    private static func describe(_ error: DecodingError, path: String) -> CatalogError {
        func location(_ codingPath: [CodingKey]) -> String {
            codingPath.reduce("") { text, key in
                if let index = key.intValue { return text + "[\(index)]" }
                return text.isEmpty ? key.stringValue : text + "." + key.stringValue
            }
        }
        switch error {
        case let .keyNotFound(key, context):
            return CatalogError(path: path, location: location(context.codingPath + [key]), problem: "missing")
        case let .typeMismatch(type, context):
            return CatalogError(path: path, location: location(context.codingPath), problem: "expected \(readable(type))")
        case let .valueNotFound(type, context):
            return CatalogError(path: path, location: location(context.codingPath), problem: "expected \(readable(type)), found null")
        case let .dataCorrupted(context):
            if let underlying = context.underlyingError {
                return CatalogError(path: path, location: location(context.codingPath), problem: "is not valid JSON (\(underlyingMessage(underlying)))")
            }
            return CatalogError(path: path, location: location(context.codingPath), problem: context.debugDescription)
        @unknown default:
            return CatalogError(path: path, location: "", problem: "\(error)")
        }
    }

    private static func readable(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type: "a whole number"
        case is Double.Type: "a number"
        case is Bool.Type: "true or false"
        default: "\(type)".lowercased().hasPrefix("array") ? "a list" : "an object"
        }
    }

    private static func underlyingMessage(_ error: Error) -> String {
        let ns = error as NSError
        return (ns.userInfo[NSDebugDescriptionErrorKey] as? String) ?? ns.localizedDescription
    }
}

/// A problem found after decoding, with its place in the file.
struct Problem: Error {
    let location: String
    let message: String
}
