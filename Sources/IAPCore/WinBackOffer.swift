import Foundation

/// Who may take a win-back offer (App Store Connect's customer eligibility): an Apple ID whose subscription churned
/// (expired with auto-renew off, not in a grace period or billing retry), after enough paid time, within a window
/// after it ended, and not too soon after its last win-back offer.
public struct WinBackRules: Sendable, Equatable {
    /// The least paid time in the subscription, in months (`customerEligibilityPaidSubscriptionDurationInMonths`).
    public let paidMonths: Int
    /// How long ago the subscription ended, in months (`customerEligibilityTimeSinceLastSubscribedInMonths`).
    public let monthsSinceLapsed: ClosedRange<Int>
    /// The least time between two win-back offers redeemed, in months (`customerEligibilityWaitBetweenOffersInMonths`).
    public let waitMonths: Int

    public init(paidMonths: Int = 0, monthsSinceLapsed: ClosedRange<Int> = 0...Self.mostMonths, waitMonths: Int = 0) {
        self.paidMonths = paidMonths
        self.monthsSinceLapsed = monthsSinceLapsed
        self.waitMonths = waitMonths
    }

    /// Any churned subscriber: what iapsim assumes of a .storekit file's win-back offer, whose format carries no rules.
    public static let anyLapsed = WinBackRules()
    /// The longest any rule counts, in months.
    public static let mostMonths = 120

    /// Where an Apple ID stands in the subscription a win-back offer is for, as the store knows it.
    public struct Standing: Sendable, Equatable {
        /// When the subscription ended; nil while it runs.
        public let lapsedAt: Date?
        /// Whether Apple still retries a failed renewal (a grace period or billing retry): no win-back then.
        public let retrying: Bool
        /// How long the Apple ID paid for the subscription, in days.
        public let paidDays: Int
        /// When the Apple ID last took a win-back offer of the group.
        public let lastWinBack: Date?

        public init(lapsedAt: Date?, retrying: Bool, paidDays: Int, lastWinBack: Date?) {
            self.lapsedAt = lapsedAt
            self.retrying = retrying
            self.paidDays = paidDays
            self.lastWinBack = lastWinBack
        }
    }

    /// Whether an Apple ID standing so may take the offer at `now`. Months are counted on the calendar.
    public func admits(_ standing: Standing, at now: Date) -> Bool {
        guard let lapsed = standing.lapsedAt, lapsed <= now, !standing.retrying else { return false }
        guard standing.paidDays >= SubscriptionPeriod.days(inMonths: paidMonths) else { return false }
        let since = SubscriptionPeriod.wholeMonths(from: lapsed, to: now)
        guard monthsSinceLapsed.contains(since) else { return false }
        if let last = standing.lastWinBack, SubscriptionPeriod.wholeMonths(from: last, to: now) < waitMonths { return false }
        return true
    }
}

extension SubscriptionTerms {
    public func winBackOffer(_ id: String) -> SubscriptionOffer? {
        winBackOffers.first { $0.id == id }
    }

    /// The offer a payment asks for by identifier: a promotional or a win-back offer (App Store Connect keeps offer
    /// identifiers unique across kinds).
    public func offer(asked id: String) -> SubscriptionOffer? {
        promotionalOffer(id) ?? winBackOffer(id)
    }

    /// Any offer of the subscription by identifier, an offer code's included: what priced a charge or prices a renewal.
    public func offer(named id: String) -> SubscriptionOffer? {
        offer(asked: id) ?? codeOffers.first { $0.id == id }
    }

    /// The win-back offers an Apple ID standing so may take, best first (App Store Connect's order: the catalog's).
    public func eligibleWinBackOfferIds(_ standing: WinBackRules.Standing, at now: Date) -> [String] {
        winBackOffers.filter { ($0.winBack ?? .anyLapsed).admits(standing, at: now) }.map(\.id)
    }
}

extension SubscriptionPeriod {
    /// Paid months as days: a month counts as February's 28, so that a month paid at any time of year counts as one.
    static func days(inMonths months: Int) -> Int { months * 28 }

    /// How many whole calendar months lie between two instants (0 when `end` is earlier), in UTC as every party counts.
    static func wholeMonths(from start: Date, to end: Date) -> Int {
        max(calendar.dateComponents([.month], from: start, to: end).month ?? 0, 0)
    }
}
