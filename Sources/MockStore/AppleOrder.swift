import Foundation
import GRDB

/// Apple's customer order id, as the customer's e-mail receipt and purchase history show it ("MK5TTTVWJH"): ten
/// capitals and digits for each charge, unrelated to the app's own order id (`applicationUsername`). Support asks the
/// customer for it and looks it up (Look Up Order ID).
public enum AppleOrder {
    private static let space: Int64 = 3_656_158_440_062_976  // 36^10
    /// Prime to 36, so multiplying by it permutes `space`: two charges never share an order id, and the same store
    /// gives the same ids on every run without a generator to keep.
    private static let spread: Int64 = 1_000_003

    public static func id(of transactionId: String) -> String {
        let number = (Int64(transactionId) ?? 0) % space
        let code = String(space.dividingFullWidth(number.multipliedFullWidth(by: spread)).remainder, radix: 36, uppercase: true)
        return String(repeating: "0", count: 10 - code.count) + code
    }
}

extension StoreDatabase {
    /// Every charge already made gets the order id it would have had, so a store of an earlier version answers Look Up
    /// Order ID too.
    static func appleOrderMigration(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE storeTransaction ADD COLUMN appleOrderId TEXT;
            CREATE UNIQUE INDEX storeTransactionByAppleOrder ON storeTransaction(appleOrderId) WHERE appleOrderId IS NOT NULL;
            """)
        for id in try String.fetchAll(db, sql: "SELECT id FROM storeTransaction WHERE state = 'purchased'") {
            try chargedOrder(db, id)
        }
    }

    /// The transaction `id` was charged (written as purchased), inside the caller's database transaction.
    static func chargedOrder(_ db: Database, _ id: String) throws {
        try db.cachedStatement(sql: "UPDATE storeTransaction SET appleOrderId = ? WHERE id = ?").execute(arguments: [AppleOrder.id(of: id), id])
    }
}
