import Foundation
import GRDB
import IAPCore

extension StoreDatabase {
    /// Restore Purchases for the Apple ID `account` on this device, pressed by the app user `pressedBy`, in one database transaction, so that a kill right after loses
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
    func restore(account: String, pressedBy: String, nonConsumables: Set<String>, subscriptions: Set<String>, at date: Date) throws -> [StoreTransaction] {
        let products = Array(nonConsumables.union(subscriptions)).sorted()
        guard !products.isEmpty else { return [] }
        return try queue.writeTransaction { db in
            let (owned, open, paidElsewhere) = try Self.owned(db, account: account, products: products, nonConsumables: nonConsumables, device: device)
            var restored: [StoreTransaction] = []
            for outcome in RestoreRule.outcomes(owned, openHere: open, paidElsewhere: paidElsewhere) {
                switch outcome {
                case let .held(held):
                    restored += held.filter { !restored.contains($0) }
                case let .restore(item):
                    restored.append(try Self.restore(db, item, account: account, pressedBy: pressedBy, device: device, isSubscription: subscriptions.contains(item.productId),
                                                     at: date))
                }
            }
            return restored
        }
    }

    /// StoreKit 2's `AppStore.sync()`, then `Transaction.currentEntitlements`, for the Apple ID `account` on this device:
    /// no transaction is written. What the account owns now, by Restore Purchases' rules (a non-consumable by its first
    /// charge Apple has not refunded, a subscription chain by its latest charge), of the subscriptions only the chains
    /// still in service (active, cancelled before its end, in a billing grace period). A product this device still
    /// holds an unfinished transaction of is being handled already, and one unfinished on another device is left to
    /// finish there, as Restore Purchases leaves them. Answers their transactions' ids and products, oldest purchase first.
    func entitlements(account: String, nonConsumables: Set<String>, subscriptions: Set<String>) throws -> [(id: String, productId: String)] {
        let products = Array(nonConsumables.union(subscriptions)).sorted()
        guard !products.isEmpty else { return [] }
        return try queue.inDatabase { db in
            let (owned, open, paidElsewhere) = try Self.owned(db, account: account, products: products, nonConsumables: nonConsumables, device: device)
            let items = RestoreRule.outcomes(owned, openHere: open, paidElsewhere: paidElsewhere).compactMap { outcome -> RestoreRule.Owned? in
                if case let .restore(item) = outcome { return item } else { return nil }
            }
            return try items.filter { item in
                guard subscriptions.contains(item.productId) else { return true }
                guard let chain = try Self.subscription(db, original: item.original) else { return false }
                return [.active, .trial, .cancelled, .gracePeriod].contains(chain.status(offer: nil).state)
            }.map { ($0.charge, $0.productId) }
        }
    }

    /// What `account` paid for of `products` (Apple's record, through the ownership index), and what the queues still
    /// hold of them (through the ownership index too: the queues' own index may run through a long backlog of
    /// consumables): this device's open transactions, and the products another device has an unfinished purchase of.
    private static func owned(_ db: Database, account: String, products: [String], nonConsumables: Set<String>, device: String) throws
        -> (owned: [RestoreRule.Owned], open: [String: [StoreTransaction]], paidElsewhere: Set<String>) {
        let marks = Array(repeating: "?", count: products.count).joined(separator: ", ")
        let paid = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT id, productId, applicationUsername, originalTransactionId, cancellationDate IS NOT NULL AS refunded
            FROM storeTransaction INDEXED BY storeTransactionOwned
            WHERE account = ? AND productId IN (\(marks)) AND state = 'purchased' ORDER BY date, id
            """), arguments: StatementArguments([account] + products))
        let owned = RestoreRule.owned(paid.map {
            RestoreRule.Charge(id: $0["id"], productId: $0["productId"], original: $0.text("originalTransactionId"),
                               orderId: $0.text("applicationUsername"), refunded: $0["refunded"])
        }, nonConsumables: nonConsumables)
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
        return (owned, open, paidElsewhere)
    }

    /// Writes one restore: a new `restored` transaction naming the original, with the order id it was paid under and, for
    /// a subscription, the restored charge's fields.
    private static func restore(_ db: Database, _ item: RestoreRule.Owned, account: String, pressedBy: String, device: String, isSubscription: Bool,
                                at date: Date) throws -> StoreTransaction {
        // A restore carries the token of the purchase it restores (StoreKit 2).
        let token = try String.fetchOne(db.cachedStatement(sql: "SELECT appAccountToken FROM storeTransaction WHERE id = ?"),
                                        arguments: [item.charge]).flatMap(UUID.init(uuidString:))
        let transaction = StoreTransaction(id: try nextId(db), productId: item.productId, state: .restored, applicationUsername: item.orderId,
                                           date: date, originalTransactionId: item.original, appAccountToken: token)
        try db.cachedStatement(sql: """
            INSERT INTO storeTransaction (id, productId, state, applicationUsername, date, account, originalTransactionId, device, pressedBy,
                                          appAccountToken, sharedFrom)
            VALUES (?, ?, 'restored', ?, ?, ?, ?6, ?, ?, ?, (SELECT sharedFrom FROM storeTransaction WHERE id = ?6))
            """).execute(arguments: [transaction.id, item.productId, item.orderId, date.timeIntervalSince1970, account, item.original, device,
                                     pressedBy, token?.uuidString.lowercased()])
        if isSubscription {
            try setDetails(db, transaction.id, try Self.details(db, item.charge).repeated)
        }
        return transaction
    }
}
