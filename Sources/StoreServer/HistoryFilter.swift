import AppleVocabulary
import Foundation
import Hummingbird
import IAPCore

/// Get Transaction History's query filters, as Apple documents them: dates, product ids, product types, subscription
/// groups, revoked or not, ownership type; a transaction in the answer matches every filter given. A value Apple would
/// refuse is answered with Apple's error.
struct HistoryFilter {
    var start: Int64?
    var end: Int64?
    var productIds: Set<String> = []
    var productTypes: Set<String> = []
    var groups: Set<String> = []
    var revoked: Bool?
    var ownership: String?

    init(_ query: Parameters) throws(APIErrorBody) {
        func all(_ name: String) -> [String] { query.getAll(name).map { String($0) } }
        func milliseconds(_ name: String, _ error: APIErrorBody) throws(APIErrorBody) -> Int64? {
            guard let text = all(name).last else { return nil }
            guard let value = Int64(text), value >= 0 else { throw error }
            return value
        }
        start = try milliseconds("startDate", .invalidStartDate)
        end = try milliseconds("endDate", .invalidEndDate)
        if let start, let end, start >= end { throw .startDateAfterEndDate }
        productIds = Set(all("productId"))
        guard !productIds.contains("") else { throw .invalidProductId }
        productTypes = Set(all("productType"))
        guard productTypes.isSubset(of: Product.Kind.allCases.map(JWSTransaction.historyProductType)) else { throw .invalidProductType }
        groups = Set(all("subscriptionGroupIdentifier"))
        guard !groups.contains("") else { throw .invalidSubscriptionGroupIdentifier }
        if let text = all("revoked").last {
            // Apple's Python library sends Python's spelling, "True" and "False".
            switch text.lowercased() {
            case "true": revoked = true
            case "false": revoked = false
            default: throw .invalidRevoked
            }
        }
        if let text = all("inAppOwnershipType").last {
            guard ["FAMILY_SHARED", "PURCHASED"].contains(text) else { throw .invalidInAppOwnershipType }
            ownership = text
        }
    }

    func admits(_ transaction: AppleTransaction) -> Bool {
        let entry = transaction.entry
        let purchased = Int64(entry.purchase_date_ms) ?? 0
        if let start, purchased < start { return false }
        if let end, purchased >= end { return false }
        if !productIds.isEmpty, !productIds.contains(entry.product_id) { return false }
        // A transaction of a product the catalog no longer has is a consumable, as its JWS says.
        if !productTypes.isEmpty, !productTypes.contains(JWSTransaction.historyProductType(of: transaction.product?.kind ?? .consumable)) { return false }
        if !groups.isEmpty, !groups.contains(entry.subscription_group_identifier ?? "") { return false }
        // Revoked as the JWS says it (a revocationDate): an upgraded transaction's cancellation date is no revocation.
        if let revoked, revoked != entry.isRefunded { return false }
        if let ownership, ownership != (entry.in_app_ownership_type ?? "PURCHASED") { return false }
        return true
    }
}
