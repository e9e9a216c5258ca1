import Foundation
import GRDB
import IAPCore

extension StoreDatabase {
    /// Restore Purchases for `account` on this device, in one database transaction, so that a kill right after loses
    /// nothing (what it wrote is unfinished, re-delivered at the next launch) and a kill before leaves nothing half-done.
    /// Restores each product of `nonConsumables` the account paid for (by its first purchase Apple has not refunded)
    /// and the latest paid transaction of each chain of `subscriptions` (transactions sharing an original transaction
    /// id; a chain whose latest charge was refunded is revoked, and not restored), each as a new `restored` transaction
    /// naming that original, carrying the order id it was paid under and, for a subscription, that charge's fields
    /// (expiry, offer, web order line item). Unlike buying it again, a restore leaves auto-renew as it is.
    /// A product this device still holds an unfinished transaction of for the account is not restored again: a restore
    /// of it still unfinished is answered as it is (no duplicates pile up), a purchase of it still unfinished is left to
    /// finish. So is a purchase still unfinished on another device: until the app there has finished it, the backend
    /// may not have credited it, and a restore of it could be verified first, by whoever is logged in here.
    /// Answers the restored transactions, oldest purchase first.
    func restore(account: String, nonConsumables: Set<String>, subscriptions: Set<String>, at date: Date) throws -> [StoreTransaction] {
        let products = Array(nonConsumables.union(subscriptions)).sorted()
        guard !products.isEmpty else { return [] }
        let marks = Array(repeating: "?", count: products.count).joined(separator: ", ")
        return try queue.write { db in
            // Apple's record of what the account paid for, through the ownership index.
            let paid = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT id, productId, applicationUsername, originalTransactionId, cancellationDate IS NOT NULL AS refunded
                FROM storeTransaction INDEXED BY storeTransactionOwned
                WHERE account = ? AND productId IN (\(marks)) AND state = 'purchased' ORDER BY date, id
                """), arguments: StatementArguments([account] + products))
            /// What comes back: the product and order of the charge restored, and the original it names.
            struct Owned {
                let productId: String
                let original: String
                let charge: String
                let orderId: String?
                let refunded: Bool
            }
            var owned: [Owned] = []
            var chains: [String: Int] = [:]
            for row in paid {
                let id: String = row["id"], productId: String = row["productId"], refunded: Bool = row["refunded"]
                let original = row.text("originalTransactionId"), orderId = row.text("applicationUsername")
                if nonConsumables.contains(productId) {
                    // Only a charge owns it: a free re-buy (S7) names its original, and goes with it when that is refunded.
                    if !refunded, original == nil, !owned.contains(where: { $0.productId == productId }) {
                        owned.append(Owned(productId: productId, original: id, charge: id, orderId: orderId, refunded: false))
                    }
                    continue
                }
                // A later charge of the chain (a renewal, an upgrade to another level) is the one restored.
                let latest = Owned(productId: productId, original: original ?? id, charge: id, orderId: orderId, refunded: refunded)
                if let index = chains[latest.original] {
                    owned[index] = latest
                } else {
                    chains[latest.original] = owned.count
                    owned.append(latest)
                }
            }
            // What the queues still hold of the account's products, through the ownership index (the queues' own index
            // may run through a long backlog of consumables): this device's, and another's unfinished purchases.
            var open: [String: [StoreTransaction]] = [:]
            var paidElsewhere: Set<String> = []
            for row in try Row.fetchAll(db.cachedStatement(sql: """
                SELECT \(Self.columns), device FROM storeTransaction INDEXED BY storeTransactionOwned
                WHERE account = ? AND productId IN (\(marks)) AND finished = 0 AND state <> 'failed' ORDER BY date, id
                """), arguments: StatementArguments([account] + products)) {
                let transaction = Self.transaction(row)
                if row["device"] as String == device {
                    open[transaction.productId, default: []].append(transaction)
                } else if transaction.state == .purchased {
                    paidElsewhere.insert(transaction.productId)
                }
            }
            var restored: [StoreTransaction] = []
            for item in owned where !item.refunded && !paidElsewhere.contains(item.productId) {
                if let held = open[item.productId] {
                    restored += held.filter { $0.state == .restored && !restored.contains($0) }
                    continue
                }
                let transaction = StoreTransaction(id: try Self.nextId(db), productId: item.productId, state: .restored,
                                                   applicationUsername: item.orderId, date: date, originalTransactionId: item.original)
                try db.cachedStatement(sql: """
                    INSERT INTO storeTransaction (id, productId, state, applicationUsername, date, account, originalTransactionId, device)
                    VALUES (?, ?, 'restored', ?, ?, ?, ?, ?)
                    """).execute(arguments: [transaction.id, item.productId, item.orderId, date.timeIntervalSince1970, account, item.original, device])
                if subscriptions.contains(item.productId) {
                    var details = try Self.details(db, item.charge)
                    details.cancellationDate = nil
                    details.refundedShare = nil
                    try Self.setDetails(db, transaction.id, details)
                }
                restored.append(transaction)
            }
            return restored
        }
    }
}
