import GRDB

extension StoreDatabase {
    /// The device an install had before devices were told apart: its files keep their old paths, and every transaction
    /// written before the store knew devices was made on it.
    public static let firstDevice = "phone"

    /// The device whose queue holds the transaction (nil: no such transaction).
    public func device(of transactionId: String) throws -> String? {
        try queue.inDatabase { db in
            try String.fetchOne(db.cachedStatement(sql: "SELECT device FROM storeTransaction WHERE id = ?"), arguments: [transactionId])
        }
    }

    /// Whether the transaction is in this device's queue as the signed-in Apple ID sees it.
    func isInThisQueue(_ transactionId: String) throws -> Bool {
        try queue.inDatabase { db in
            try Bool.fetchOne(db.cachedStatement(sql: "SELECT device = ? AND \(Self.signedInOnly) FROM storeTransaction WHERE id = ?"),
                              arguments: [device, appleId, appleId, transactionId]) ?? false
        }
    }
}
