import Foundation
import GRDB
import IAPCore

/// A transaction as the receipt lists it: what the queue shows, Apple's subscription and refund fields, and when the
/// purchase it continues (a renewal's or a restore's original) was made.
struct ReceiptRow {
    let transaction: StoreTransaction
    let details: TransactionDetails
    let originalDate: Date
}

extension ReceiptRow {
    /// A row of the store's transaction columns, its details' and `originalDate`.
    init(_ row: Row) {
        transaction = StoreDatabase.transaction(row)
        details = TransactionDetails(row: row)
        originalDate = row.real("originalDate").map(Date.init(timeIntervalSince1970:)) ?? transaction.date
    }
}
