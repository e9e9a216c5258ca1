/// Restore Purchases (S8): the store re-delivers what the account owns as `restored` transactions; the client claims,
/// persists, verifies and finishes them as it does any payment (the backend keys restored credits on the original, so
/// nothing is credited twice), and the HUD waits for all of them. In StoreKit 2 Restore is `AppStore.sync()`: the app
/// reads `Transaction.currentEntitlements`, the transactions themselves, and sends each to its server for the user who
/// restored; nothing is persisted or finished (they were, when they were bought), and the HUD waits for the answers.
extension AppState {
    mutating func restorePurchases() -> [Effect] {
        guard let name = user, device.hud == nil else { return [] }
        guard !faults.contains(.jailbroken) else {
            // C12: the app refuses every purchase on such a device, restores included; the store is never asked.
            device.hud = HUD(.jailbroken)
            return spendIfOnce(.jailbroken)
        }
        if let running = device.restore, running.restored == nil {
            // The store has not answered yet: its restored transactions are being told to the user who asked, so a
            // second restore (of another user) would blur whose they are. The same user sees the one under way again.
            if running.user == name { device.hud = HUD(.restoring) }
            return []
        }
        device.restore = Restore(user: name)
        device.hud = HUD(.restoring)
        if storeKit == .two { return [.syncAppStore(account: name)] + triggerVerifyQueue() }
        // Pressing Restore is a trigger as well: a restored order still pending from before is tried at once.
        return [.restorePurchases(account: name)] + triggerVerifyQueue()
    }

    mutating func restoreAnswered(_ account: String, _ result: Result<[String], StoreRequestError>) -> [Effect] {
        guard var running = device.restore, running.user == account, running.restored == nil else { return [] }
        let shown = device.hud?.kind == .restoring && user == account
        switch result {
        case .failure:
            device.restore = nil
            if shown { device.hud = HUD(.restoreFailed) }
        case let .success(ids) where ids.isEmpty || user != account:
            // Nothing came back; or its user left meanwhile, and what came back is already theirs to verify at login.
            device.restore = nil
            if shown { device.hud = HUD(.nothingToRestore) }
        case let .success(ids):
            running.restored = ids
            device.restore = running
            if storeKit == .two { return ids.map { .sendEntitlement(transactionId: $0, user: account) } }
            concludeRestore()
        }
        return []
    }

    /// StoreKit 2: the server's answer on one entitlement. One it could not decide now (unreachable, Apple to ask again
    /// later…) is not retried: the restore says it failed, and pressing Restore again sends them all again.
    mutating func entitlementSent(_ user: String, _ transactionId: String, _ outcome: VerifyOutcome) -> [Effect] {
        guard var running = device.restore, running.user == user, running.restored?.contains(transactionId) == true else { return [] }
        switch outcome {
        case .valid, .alreadyCredited: break
        case let .creditedElsewhere(holder) where holder != user: running.elsewhere.insert(transactionId)
        default: running.unsent.insert(transactionId)
        }
        running.finished.insert(transactionId)
        device.restore = running
        concludeRestore()
        // What the user owns now is the server's word, read again as after any credit.
        return self.user == user && running.unsent.isEmpty ? [.refreshAccount(user)] : []
    }

    /// A transaction was finished: the restore waiting for it may be over.
    mutating func restoreSawFinished(_ transactionId: String) {
        guard device.restore != nil else { return }
        device.restore?.finished.insert(transactionId)
        concludeRestore()
    }

    /// Once every restored transaction is verified and finished, the HUD (if still up) says how many came back to the
    /// user; when the backend keeps every one with another app user, that they belong to another account.
    private mutating func concludeRestore() {
        guard let running = device.restore, running.isDone, let restored = running.restored else { return }
        device.restore = nil
        guard device.hud?.kind == .restoring, user == running.user else { return }
        guard running.unsent.isEmpty else { return device.hud = HUD(.restoreFailed) }
        let theirs = restored.filter { !running.elsewhere.contains($0) }.count
        device.hud = theirs == 0 && !running.elsewhere.isEmpty ? HUD(.otherAccount) : HUD(.restored, count: theirs)
    }
}
