/// Settings › App Store on the device (A1): the Apple ID that pays for every app user who logs in here.
extension AppState {
    /// The store's queue now shows the new Apple ID's unfinished transactions only: what the observer saw of the old
    /// one waits in the store until it signs in again, and is read afresh. A payment on the sheet stays the old Apple
    /// ID's: the HUD says so instead of waiting for a callback that will not come while another Apple ID is in.
    mutating func appleIdSignedIn(_ name: String) -> [Effect] {
        guard device.appleId != name else { return [] }
        device.appleId = name
        if device.restore?.restored == nil { device.restore?.appleIdChanged = true }
        device.storeQueue = [:]
        device.unclaimed = []
        // Until the new Apple ID's queue is read, nothing in it is known: a login meanwhile must not judge its intents
        // stale against an empty queue, so it waits for the read as a login at launch does.
        device.readingStoreQueue = true
        if let purchase = device.purchase, device.hud?.kind.isPaymentSheet == true {
            device.hud = HUD(.appleIdChanged, productId: purchase.productId, transactionId: purchase.transactionId)
            device.purchase = nil
        }
        return [.readStoreQueue(after: 0)] + accountRefresh
    }

    /// Family Sharing ended for these products (A4): the backend revoked them on Apple's word (REVOKE); the HUD says
    /// why they are no longer owned, unless a wait is on screen.
    mutating func entitlementsRevoked(_ productIds: [String]) -> [Effect] {
        guard let first = productIds.first else { return [] }
        if device.hud?.kind.isWaiting != true { device.hud = HUD(.familyRevoked, productId: first) }
        return accountRefresh
    }
}
