import Foundation
import IAPCore

/// A transaction as the receipt lists it: what the queue shows, Apple's subscription and refund fields, and when the
/// purchase it continues (a renewal's or a restore's original) was made.
struct ReceiptRow {
    let transaction: StoreTransaction
    let details: TransactionDetails
    let originalDate: Date
}
