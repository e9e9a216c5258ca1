import IAPCore

/// Restore Purchases (S8). In StoreKit 1, `SKPaymentQueue.restoreCompletedTransactions`: the restored transactions reach
/// the observer as any other news, and then the restore itself is answered. In StoreKit 2, `AppStore.sync()` then
/// `Transaction.currentEntitlements`: what the account owns now, the transactions themselves; nothing is written,
/// nothing reaches the observer and nothing is left to finish. Either way Apple answers after its latency (the
/// password sheet), and a fault is decided when asked, as every other request's is.
extension MockPaymentQueue {
    public func restoreCompletedTransactions(account: String, _ completion: @escaping (Result<[String], StoreRequestError>) -> Void) {
        restoring(account, completion) { [self] nonConsumables, subscriptions in
            signedReceipt = nil
            let restored = try database.restore(account: database.appleId(for: account), pressedBy: account, nonConsumables: nonConsumables,
                                                subscriptions: subscriptions, at: scheduler.now)
            for transaction in restored { notify(identified(transaction)) }
            return restored.map(\.id)
        }
    }

    public func syncAppStore(account: String, _ completion: @escaping (Result<[String], StoreRequestError>) -> Void) {
        restoring(account, completion) { [self] nonConsumables, subscriptions in
            try database.entitlements(account: database.appleId(for: account), nonConsumables: nonConsumables, subscriptions: subscriptions).map(\.id)
        }
    }

    /// StoreKit 2's `Transaction.currentEntitlements` on this device for the Apple ID `user` pays with, as the app reads it
    /// (the inspector shows it): what Apple says the Apple ID owns, whichever app user holds it on the app's server.
    public func currentEntitlements(user: String) -> [(id: String, productId: String)] {
        let (nonConsumables, subscriptions) = ownable
        return attempt { try database.entitlements(account: database.appleId(for: user), nonConsumables: nonConsumables, subscriptions: subscriptions) } ?? []
    }

    /// The catalog's products a restore brings back: its non-consumables and its auto-renewable subscriptions.
    private var ownable: (nonConsumables: Set<String>, subscriptions: Set<String>) {
        (Set(catalog.filter { $0.kind == .nonConsumable }.map(\.id)), Set(catalog.filter { $0.kind == .subscription }.map(\.id)))
    }

    /// Answers `completion` after Apple's latency with what `answer` finds among the catalog's non-consumables and
    /// subscriptions, or a failure (the `restore-fails` fault, or the store's database).
    private func restoring(_ account: String, _ completion: @escaping (Result<[String], StoreRequestError>) -> Void,
                           answer: @escaping (_ nonConsumables: Set<String>, _ subscriptions: Set<String>) throws -> [String]) {
        let fails = faults.fire(.restoreFails) != nil
        let (nonConsumables, subscriptions) = ownable
        scheduler.after(latency.payment) { [weak self] in
            guard let self else { return }
            guard !fails, let ids = attempt({ try answer(nonConsumables, subscriptions) }) else { return completion(.failure(.failed)) }
            completion(.success(ids))
        }
    }
}
