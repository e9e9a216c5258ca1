import IAPCore

/// Restore Purchases (S8), as `SKPaymentQueue.restoreCompletedTransactions` does it: Apple answers after its latency,
/// the restored transactions reach the observer as any other news, and then the restore itself is answered.
extension MockPaymentQueue {
    public func restoreCompletedTransactions(account: String, _ completion: @escaping (Result<[String], StoreRequestError>) -> Void) {
        // Decided when asked, as every other request's fault is.
        let fails = faults.fire(.restoreFails) != nil
        let nonConsumables = Set(catalog.filter { $0.kind == .nonConsumable }.map(\.id))
        let subscriptions = Set(catalog.filter { $0.kind == .subscription }.map(\.id))
        scheduler.after(latency.payment) { [weak self] in
            guard let self else { return }
            guard !fails else { return completion(.failure(.failed)) }
            signedReceipt = nil
            guard let restored = attempt({
                try database.restore(account: database.appleId(for: account), pressedBy: account, nonConsumables: nonConsumables, subscriptions: subscriptions, at: scheduler.now)
            }) else { return completion(.failure(.failed)) }
            for transaction in restored { notify(identified(transaction)) }
            completion(.success(restored.map(\.id)))
        }
    }
}

/// Restore in StoreKit 2: `AppStore.sync()`, then `Transaction.currentEntitlements`. Apple answers after the same
/// latency (the password sheet), with what the account owns now; nothing is written, nothing reaches the observer and
/// nothing is left to finish.
extension MockPaymentQueue {
    public func syncAppStore(account: String, _ completion: @escaping (Result<[String], StoreRequestError>) -> Void) {
        let fails = faults.fire(.restoreFails) != nil
        let nonConsumables = Set(catalog.filter { $0.kind == .nonConsumable }.map(\.id))
        let subscriptions = Set(catalog.filter { $0.kind == .subscription }.map(\.id))
        scheduler.after(latency.payment) { [weak self] in
            guard let self else { return }
            guard !fails, let owned = attempt({
                try database.entitlements(account: database.appleId(for: account), nonConsumables: nonConsumables, subscriptions: subscriptions)
            }) else { return completion(.failure(.failed)) }
            completion(.success(owned))
        }
    }
}
