import Foundation
import IAPCore

/// The app receipt's payload, which the store signs: its `in_app` entries with Apple's field names.
public struct Receipt: Codable, Sendable, Equatable {
    /// One purchase as Apple lists it in `in_app` and `latest_receipt_info`, with Apple's field names; the
    /// subscription and refund fields are present only when they apply.
    public struct Entry: Codable, Sendable, Equatable {
        public let transaction_id: String
        public let original_transaction_id: String
        public let product_id: String
        public let purchase_date_ms: String
        public var original_purchase_date_ms: String?
        public let quantity: String
        public var expires_date_ms: String?
        public var is_trial_period: String?
        public var is_in_intro_offer_period: String?
        /// The promotional offer the charge was priced at.
        public var promotional_offer_id: String?
        /// The offer code's offer the charge was priced at (its reference name).
        public var offer_code_ref_name: String?
        public var cancellation_date_ms: String?
        public var cancellation_reason: String?
        public var web_order_line_item_id: String?
        public var subscription_group_identifier: String?
        /// PURCHASED, or FAMILY_SHARED for a family member's.
        public var in_app_ownership_type: String?
        /// Apple's date strings beside each `_ms` date, as verifyReceipt writes them (`dated`); the signed receipt has none.
        public var purchase_date: String?, purchase_date_pst: String?
        public var original_purchase_date: String?, original_purchase_date_pst: String?
        public var expires_date: String?, expires_date_pst: String?
        public var cancellation_date: String?, cancellation_date_pst: String?

        public init(transaction_id: String, original_transaction_id: String, product_id: String, purchase_date_ms: String, quantity: String = "1") {
            self.transaction_id = transaction_id
            self.original_transaction_id = original_transaction_id
            self.product_id = product_id
            self.purchase_date_ms = purchase_date_ms
            self.quantity = quantity
        }

        /// The entry as verifyReceipt answers it: each `_ms` date also in Apple's two date strings (GMT and Cupertino's).
        public var dated: Entry {
            func strings(_ milliseconds: String?) -> (String?, String?) {
                Self.date(milliseconds).map { (AppleDate.gmt($0), AppleDate.pst($0)) } ?? (nil, nil)
            }
            var entry = self
            (entry.purchase_date, entry.purchase_date_pst) = strings(purchase_date_ms)
            (entry.original_purchase_date, entry.original_purchase_date_pst) = strings(original_purchase_date_ms)
            (entry.expires_date, entry.expires_date_pst) = strings(expires_date_ms)
            (entry.cancellation_date, entry.cancellation_date_pst) = strings(cancellation_date_ms)
            return entry
        }

        /// The entry as the signed payload holds it: none of what verifyReceipt adds (`dated`'s strings, the ownership).
        public var asSigned: Entry {
            var entry = self
            (entry.purchase_date, entry.purchase_date_pst) = (nil, nil)
            (entry.original_purchase_date, entry.original_purchase_date_pst) = (nil, nil)
            (entry.expires_date, entry.expires_date_pst) = (nil, nil)
            (entry.cancellation_date, entry.cancellation_date_pst) = (nil, nil)
            entry.in_app_ownership_type = nil
            return entry
        }

        /// Apple's milliseconds since 1970, as a string.
        public static func milliseconds(_ date: Date) -> String { String(AppleDate.milliseconds(date)) }

        public var expiresDate: Date? { Self.date(expires_date_ms) }
        public var cancellationDate: Date? { Self.date(cancellation_date_ms) }

        static func date(_ milliseconds: String?) -> Date? {
            milliseconds.flatMap(Double.init).map { Date(timeIntervalSince1970: $0 / 1000) }
        }
        public var isRefunded: Bool { cancellation_date_ms != nil && cancellation_reason != nil }
    }

    public let bundle_id: String
    public let environment: String
    public let in_app: [Entry]
    /// When the store signed it; absent from receipts signed before it was recorded.
    public var receipt_creation_date_ms: String?

    public init(bundle_id: String, environment: String, in_app: [Entry], receipt_creation_date_ms: String? = nil) {
        self.bundle_id = bundle_id
        self.environment = environment
        self.in_app = in_app
        self.receipt_creation_date_ms = receipt_creation_date_ms
    }

    /// The same receipt with each entry's ownership as Apple's records say it (`verifyReceipt` adds it; the signed
    /// payload has no such field).
    public func owned(familyShared: Set<String>) -> Receipt {
        withEntries { entry in
            var entry = entry
            entry.in_app_ownership_type = familyShared.contains(entry.transaction_id) ? "FAMILY_SHARED" : "PURCHASED"
            return entry
        }
    }

    /// The same receipt, each entry changed by `change`.
    public func withEntries(_ change: (Entry) -> Entry) -> Receipt {
        var copy = Receipt(bundle_id: bundle_id, environment: environment, in_app: in_app.map(change))
        copy.receipt_creation_date_ms = receipt_creation_date_ms
        return copy
    }

    public static let bundleId = "com.iapsim.app"
    /// The app's `CFBundleVersion`, and the one first bought or installed (the sandbox always says "1.0").
    public static let applicationVersion = "1"
    public static let originalApplicationVersion = "1.0"
}
