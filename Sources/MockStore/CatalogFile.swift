import Foundation
import IAPCore

/// The app's own catalog format (`assets/catalog.json`).
struct CatalogFile: Decodable {
    struct Entry: Decodable {
        let id: String
        let type: String
        let coins: Int?
        let price: String
        let title: Text
        let description: Text

        struct Text: Decodable {
            let en: String
            let zh: String
        }
    }

    let products: [Entry]
}

extension CatalogFile.Entry {
    func product(at location: String) throws -> Product {
        guard let kind = Product.Kind(rawValue: type) else {
            throw Problem(location: "\(location).type", message: "unknown type \"\(type)\" (expected \(Product.Kind.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return Product(
            id: id, kind: kind,
            title: Localized(en: title.en, zh: title.zh),
            summary: Localized(en: description.en, zh: description.zh),
            price: Localized(price),
            coins: kind.isConsumable ? (coins ?? 0) : 0
        )
    }
}
