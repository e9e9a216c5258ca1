import Foundation

/// The body of a `POST /verifyReceipt`, with Apple's key names.
public struct VerifyReceiptRequest: Codable, Sendable, Equatable {
    /// The base64 app receipt.
    public var receiptData: String
    /// The app's shared secret; required for a receipt's subscriptions to be reported in full.
    public var password: String?
    /// Report only the latest transaction of each subscription in `latest_receipt_info`.
    public var excludeOldTransactions: Bool?

    public init(receiptData: String, password: String? = nil, excludeOldTransactions: Bool? = nil) {
        self.receiptData = receiptData
        self.password = password
        self.excludeOldTransactions = excludeOldTransactions
    }

    enum CodingKeys: String, CodingKey {
        case receiptData = "receipt-data"
        case password
        case excludeOldTransactions = "exclude-old-transactions"
    }
}
