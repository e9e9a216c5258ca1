/// Family Sharing (A4), as the family organizer sets it up in Settings: Apple's side, not the app's.
extension MockPaymentQueue {
    /// The Apple IDs `members` are one family from now on: each owns what the others bought of the family-shareable
    /// products, and gets it back by Restore Purchases.
    public func joinFamily(_ members: [String]) -> Bool {
        let joined = attempt { try database.joinFamily(members, at: scheduler.now) } != nil
        familyChanged()
        return joined
    }

    /// `appleId` leaves its family: what it had through the family, and the family through it, is revoked (REVOKE).
    /// False when it was in none.
    public func leaveFamily(_ appleId: String) -> Bool {
        let left = attempt { try database.leaveFamily(appleId, at: scheduler.now) } ?? false
        familyChanged()
        return left
    }

    private func familyChanged() {
        signedReceipt = nil
        outboxWritten()
        onSubscriptionsChanged()
        tellRevocations()
    }

    /// StoreKit's `paymentQueue(_:didRevokeEntitlementsForProductIdentifiers:)`, for the Apple ID signed in here.
    func tellRevocations() {
        guard !database.revokedShares.isEmpty else { return }
        let here = database.revokedShares.filter { $0.appleId == database.appleId }.map(\.productId)
        database.revokedShares = []
        if !here.isEmpty { onEntitlementsRevoked(here) }
    }
}
