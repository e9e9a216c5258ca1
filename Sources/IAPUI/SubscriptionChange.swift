import IAPCore

/// What happened to one subscription between two readings of the account's statuses: the store acts on its own clock
/// (renewals, billing retries, expiries, refunds) and reaches the app only as a fresh reading, so the timeline tells
/// the difference.
enum SubscriptionChange: Equatable {
    case subscribed(SubscriptionStatus)
    case renewed(SubscriptionStatus)
    /// A billing retry went through, inside the grace period or after it.
    case recovered(SubscriptionStatus)
    case billingFailed(SubscriptionStatus)
    /// Billing kept failing to the end of the grace period: the service is off while Apple retries.
    case graceEnded(SubscriptionStatus)
    case autoRenewOff(SubscriptionStatus)
    case autoRenewOn(SubscriptionStatus)
    /// `billingGaveUp`: Apple stopped retrying a charge that kept failing.
    case expired(SubscriptionStatus, billingGaveUp: Bool)
    case refunded(SubscriptionStatus)
    /// An upgrade now, or a downgrade or crossgrade reaching its renewal.
    case planChanged(from: String, SubscriptionStatus)
    /// A downgrade or crossgrade asked for (or dropped: nil) for the next renewal.
    case renewsAs(String?, SubscriptionStatus)
    case other(SubscriptionStatus)

    /// Each subscription in `new` that differs from its reading in `old` (by original transaction id: one chain).
    static func changes(from old: [SubscriptionStatus], to new: [SubscriptionStatus]) -> [SubscriptionChange] {
        new.compactMap { status in
            guard let before = old.first(where: { $0.originalTransactionId == status.originalTransactionId }) else {
                return .subscribed(status)
            }
            return change(from: before, to: status)
        }
    }

    private static func change(from old: SubscriptionStatus, to new: SubscriptionStatus) -> SubscriptionChange? {
        guard old != new else { return nil }
        if new.state == .revoked { return old.state == .revoked ? .other(new) : .refunded(new) }
        // A chain that entitled nobody and is live again was bought again, whichever product of the group.
        if [.expired, .revoked].contains(old.state), ![.expired, .revoked].contains(new.state) { return .subscribed(new) }
        if new.productId != old.productId { return .planChanged(from: old.productId, new) }
        switch (old.state, new.state) {
        case (.expired, .expired):
            return .other(new)
        case (_, .expired):
            return .expired(new, billingGaveUp: old.state == .gracePeriod || old.state == .billingRetry)
        case (.gracePeriod, .gracePeriod), (.billingRetry, .billingRetry):
            return .other(new)
        case (.gracePeriod, .billingRetry):
            return .graceEnded(new)
        case (_, .gracePeriod), (_, .billingRetry):
            // Straight into billing retry when the app has no grace period.
            return .billingFailed(new)
        case (.gracePeriod, .active), (.gracePeriod, .trial), (.billingRetry, .active), (.billingRetry, .trial):
            return .recovered(new)
        case (.cancelled, .cancelled):
            return .other(new)
        case (_, .cancelled):
            return .autoRenewOff(new)
        case (.cancelled, _) where new.date == old.date:
            return .autoRenewOn(new)
        case (_, .active), (_, .trial):
            if new.date != old.date { return .renewed(new) }
            return new.renewsAs != old.renewsAs ? .renewsAs(new.renewsAs, new) : .other(new)
        default:
            return .other(new)
        }
    }
}
