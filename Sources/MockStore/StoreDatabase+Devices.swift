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

    /// A statement's condition: the row is in this device's queue as the signed-in Apple ID sees it. Bound with
    /// `inThisQueueArguments`, before any other argument.
    static let inThisQueue = "device = ? AND \(signedInOnly)"

    var inThisQueueArguments: StatementArguments { [device, appleId, appleId] }

    /// Whether the transaction is in this device's queue as the signed-in Apple ID sees it.
    func isInThisQueue(_ transactionId: String) throws -> Bool {
        try queue.inDatabase { db in
            try Bool.fetchOne(db.cachedStatement(sql: "SELECT \(Self.inThisQueue) FROM storeTransaction WHERE id = ?"),
                              arguments: inThisQueueArguments + [transactionId]) ?? false
        }
    }
}
