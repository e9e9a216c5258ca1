import Foundation

/// A one-year subscription's billing plan "monthly with a 12-month commitment" (App Store Connect; a .storekit file's
/// `billingPlans` entry of `billingPlanType` `MONTHLY`): the customer pays each month and is committed for twelve.
/// Turning auto-renew off ends the subscription at the end of the commitment, not of the month; a commitment that
/// reaches its end with auto-renew on starts another.
public struct CommitmentPlan: Sendable, Equatable {
    /// What each month charges (the plan's `displayPrice`).
    public let monthlyPrice: Localized
    /// The whole commitment's price (`commitmentDisplayPrice`).
    public let totalPrice: Localized

    public init(monthlyPrice: Localized, totalPrice: Localized) {
        self.monthlyPrice = monthlyPrice
        self.totalPrice = totalPrice
    }

    /// The whole commitment's price in thousandths of the currency, as the Server API writes prices (`commitmentPrice`);
    /// nil when the shown price holds no number.
    public var totalMilliunits: Int64? {
        Self.amount(totalPrice)?.milliunits
    }

    /// The amount a shown price carries ("¥336", "119.88"), as a product's price is read.
    public static func amount(_ shown: Localized) -> Decimal? {
        Money(shown: shown[.en], currency: "")?.amount
    }

    /// Billing periods in one commitment.
    public static let billingPeriods = 12
    /// One billing period.
    public static let billingPeriod = SubscriptionPeriod.month
}

/// StoreKit 2's purchase option `billingPlanType(_:)` and the Server API's `billingPlanType`.
public enum BillingPlan: String, Sendable, Equatable, Codable {
    /// The product's own period, paid up front: every subscription has this plan.
    case upFront = "BILLED_UPFRONT"
    /// Monthly with a 12-month commitment.
    case monthly = "MONTHLY"
}
