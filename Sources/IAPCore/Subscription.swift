import Foundation

/// How long one subscription period lasts, as an ISO 8601 duration (`P1W`, `P1M`, `P1Y`, `P3D`, `P1Y6M`).
public struct SubscriptionPeriod: Sendable, Equatable, CustomStringConvertible {
    public let years: Int
    public let months: Int
    public let weeks: Int
    public let days: Int

    public init(years: Int = 0, months: Int = 0, weeks: Int = 0, days: Int = 0) {
        self.years = years
        self.months = months
        self.weeks = weeks
        self.days = days
    }

    /// Nil for anything but a positive date-only duration of at most ten years: a subscription period has no hours.
    public init?(iso8601 text: String) {
        guard text.hasPrefix("P"), text.count > 1 else { return nil }
        // Each unit at most once, in any order. Four variables rather than a dictionary keyed by Character: the catalog
        // is read at every launch, and that dictionary's type was built for this alone.
        var years, months, weeks, days: Int?
        var digits = ""
        for c in text.dropFirst() {
            if c.isASCII, c.isNumber {
                digits.append(c)
                continue
            }
            guard let n = Int(digits), n <= Self.longestDays else { return nil }
            switch c {
            case "Y" where years == nil: years = n
            case "M" where months == nil: months = n
            case "W" where weeks == nil: weeks = n
            case "D" where days == nil: days = n
            default: return nil
            }
            digits = ""
        }
        guard digits.isEmpty else { return nil }
        self.init(years: years ?? 0, months: months ?? 0, weeks: weeks ?? 0, days: days ?? 0)
        guard self.years + self.months + self.weeks + self.days > 0, endsWithinTenYears else { return nil }
    }

    /// At most ten years: no App Store period is longer, and every date a catalog's periods make (120 intro periods of
    /// the longest) stays inside the four-digit years Apple's date fields write. Measured on the calendar from a fixed
    /// day, so that P10Y1D, P121M and P3653D are over and P10Y, P120M and P3652D are not. A year adds at most 366 days
    /// and a month at most 31, so a period whose most is within the 3,652 days of those ten years needs no calendar,
    /// whose first use costs a launch its set-up.
    private var endsWithinTenYears: Bool {
        years * 366 + months * 31 + weeks * 7 + days <= Self.tenYearsInDays || end(from: Self.reference) <= Self.tenYears
    }

    static let longestDays = 3_660
    private static let tenYearsInDays = 3_652
    private static let reference = Date(timeIntervalSince1970: 978_307_200)  // 2001-01-01, UTC
    private static let tenYears = SubscriptionPeriod(years: 10).end(from: reference)

    /// What `init(iso8601:)` takes, for messages.
    public static let expected = "an ISO 8601 period of days, weeks, months or years, 1 day to 10 years (e.g. P1W, P1M, P1Y)"

    public static let week = SubscriptionPeriod(weeks: 1)
    public static let month = SubscriptionPeriod(months: 1)
    public static let year = SubscriptionPeriod(years: 1)

    public var description: String {
        "P" + [(years, "Y"), (months, "M"), (weeks, "W"), (days, "D")].filter { $0.0 > 0 }.map { "\($0.0)\($0.1)" }.joined()
    }

    /// The end of `count` periods starting at `date`, on the calendar (a month from 31 January ends on the last day of
    /// February), in UTC so that every party computes the same instant.
    public func end(from date: Date, count: Int = 1) -> Date {
        var components = DateComponents()
        components.year = years * count
        components.month = months * count
        components.day = (weeks * 7 + days) * count
        return Self.calendar.date(byAdding: components, to: date) ?? date
    }

    /// Roughly how long, for comparing periods (a crossgrade to another length) and for grace periods.
    public var approximateDays: Int { years * 365 + months * 30 + weeks * 7 + days }

    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
}

/// An introductory offer, given once per subscription group per account.
public struct IntroOffer: Sendable, Equatable {
    public enum Mode: String, Sendable, Equatable, CaseIterable {
        case freeTrial = "free-trial"
        case payAsYouGo = "pay-as-you-go"
        case payUpFront = "pay-up-front"
    }

    public let mode: Mode
    /// One offer period; pay as you go repeats it `periods` times.
    public let period: SubscriptionPeriod
    public let periods: Int
    /// What the offer charges, as shown; nil for a free trial.
    public let price: Localized?

    public init(mode: Mode, period: SubscriptionPeriod, periods: Int = 1, price: Localized? = nil) {
        self.mode = mode
        self.period = period
        self.periods = max(periods, 1)
        self.price = price
    }
}

/// What makes a product an auto-renewable subscription: its group, its level in the group, and its period.
public struct SubscriptionTerms: Sendable, Equatable {
    /// `subscription_group_identifier`: an account holds at most one active subscription per group.
    public let group: String
    /// 1 is the highest level of service; moving to a lower number is an upgrade.
    public let level: Int
    public let period: SubscriptionPeriod
    public let introOffer: IntroOffer?
    /// Promotional, offer-code and win-back offers the catalog names, as `iapsim catalog` lists them.
    public let offers: [ListedOffer]
    /// The promotional offers iapsim sells (with a signature from the app's server).
    public let promotionalOffers: [SubscriptionOffer]
    /// The offer codes' offers: each is redeemed with its identifier as the code (a custom code).
    public let codeOffers: [SubscriptionOffer]
    /// The win-back offers, for Apple IDs whose subscription churned, best first.
    public let winBackOffers: [SubscriptionOffer]
    /// A one-year subscription's billing plan "monthly with a 12-month commitment", when it has one.
    public let monthlyCommitment: CommitmentPlan?
    /// The key the app's server signs promotional offers with, when the catalog brought one (a .storekit file's
    /// `subscriptionOffersKeyPair`); without it, iapsim's own.
    public var offersKey: SubscriptionOffersKey?
    /// Whether the app opted in to Billing Grace Period (App Store Connect; a .storekit file's `_billingGracePeriodEnabled`).
    /// Without it a failed renewal stops the service at once while Apple retries the charge.
    public var gracePeriod: Bool

    /// An offer other than the intro offer, as the catalog describes it.
    public struct ListedOffer: Sendable, Equatable {
        public enum Kind: String, Sendable, Equatable {
            case promotional, code, winback
        }

        public let kind: Kind
        public let id: String
        public let mode: String?
        public let period: String?
        public let periods: Int?

        public init(kind: Kind, id: String, mode: String?, period: String?, periods: Int?) {
            self.kind = kind
            self.id = id
            self.mode = mode
            self.period = period
            self.periods = periods
        }
    }

    public init(group: String, level: Int = 1, period: SubscriptionPeriod = .month, introOffer: IntroOffer? = nil, offers: [ListedOffer] = [],
                gracePeriod: Bool = true, promotionalOffers: [SubscriptionOffer] = [], codeOffers: [SubscriptionOffer] = [],
                winBackOffers: [SubscriptionOffer] = [], monthlyCommitment: CommitmentPlan? = nil, offersKey: SubscriptionOffersKey? = nil) {
        self.monthlyCommitment = monthlyCommitment
        self.group = group
        self.level = level
        self.period = period
        self.introOffer = introOffer
        self.offers = offers
        self.promotionalOffers = promotionalOffers
        self.codeOffers = codeOffers
        self.winBackOffers = winBackOffers
        self.offersKey = offersKey
        self.gracePeriod = gracePeriod
    }

    public func promotionalOffer(_ id: String) -> SubscriptionOffer? {
        promotionalOffers.first { $0.id == id }
    }

    /// The offer a custom code redeems: the code is its identifier, in any case, spaces left out. An offer of one-time
    /// codes is redeemed by its codes only.
    public func codeOffer(redeemedBy code: String) -> SubscriptionOffer? {
        let typed = SubscriptionOffer.normalizedCode(code)
        return codeOffers.first { ($0.codes?.oneTimeCodes ?? 0) == 0 && SubscriptionOffer.normalizedCode($0.id) == typed }
    }

    /// How long Apple keeps the service on while it retries a failed renewal: 6 days for weekly periods, 16 for
    /// longer ones (App Store Connect's defaults); nil when the app has no grace period.
    public var gracePeriodDays: Int? {
        guard gracePeriod else { return nil }
        return period.approximateDays < 28 ? 6 : 16
    }
}

/// A subscription as the store reports it to its account (StoreKit's subscription status), at one instant.
public struct SubscriptionStatus: Sendable, Equatable {
    public enum State: String, Sendable, Equatable, CaseIterable {
        /// Paid and auto-renewing: `date` is the renewal.
        case active
        /// In a free trial or intro period: `date` is its end.
        case trial
        /// Auto-renew turned off: `date` is when it ends.
        case cancelled
        /// The renewal's charge failed and Apple retries it daily, the service still on: `date` is the end of the
        /// grace period (StoreKit's `inGracePeriod`).
        case gracePeriod = "grace-period"
        /// The grace period ended with the charge still failing: the service is off while Apple keeps retrying, and
        /// `date` is when it stops (StoreKit's `inBillingRetryPeriod`).
        case billingRetry = "billing-retry"
        case expired
        /// Refunded: Apple took the service back.
        case revoked
    }

    public let productId: String
    public let group: String
    public let state: State
    public let date: Date?
    /// The product the next renewal will charge, when it differs (a downgrade or crossgrade waits for the renewal).
    public let renewsAs: String?
    public let originalTransactionId: String

    /// The team raised the price; the next renewal charges it only if the customer agreed (Apple's price consent).
    public enum PriceIncrease: String, Sendable, Equatable, Codable {
        case pending, accepted
    }

    /// An offer and how many renewals, the next one first, it still prices.
    public struct RenewalOffer: Sendable, Equatable {
        public let id: String
        public let periods: Int

        public init(id: String, periods: Int) {
            self.id = id
            self.periods = periods
        }
    }

    /// A price increase waiting for the next renewal; nil when none is.
    public var priceIncrease: PriceIncrease? = nil
    /// The renewal info's `eligibleWinBackOfferIDs`: the win-back offers the Apple ID may take now, best first.
    public var eligibleWinBackOfferIds: [String] = []
    /// The offer the next renewal is priced at (a promotional, win-back or code offer's period still to come).
    public var renewalOffer: RenewalOffer?
    /// The plan the next renewal bills: monthly inside a 12-month commitment.
    public var billingPlan: BillingPlan?
    /// A trial state's free period is an offer's (a promotional, win-back or code offer's free month), not the
    /// introductory trial the Apple ID has once in the group.
    public var freeOffer = false
    /// The renewal info's `willAutoRenew`: off for a cancelled subscription, and for one Apple is retrying the charge of
    /// when the customer turned it off there (the state stays the retry's until the next attempt ends it).
    public var willAutoRenew = true

    /// Auto-renew turned off while Apple retries the charge: it ends at the next attempt.
    public var retryStopped: Bool { (state == .gracePeriod || state == .billingRetry) && !willAutoRenew }

    public init(productId: String, group: String, state: State, date: Date?, renewsAs: String? = nil, originalTransactionId: String,
                priceIncrease: PriceIncrease? = nil) {
        self.priceIncrease = priceIncrease
        self.productId = productId
        self.group = group
        self.state = state
        self.date = date
        self.renewsAs = renewsAs
        self.originalTransactionId = originalTransactionId
    }

    /// Whether the service is on: active, trial, cancelled but not yet ended, or inside the grace period.
    public var entitles: Bool { !isOver && state != .billingRetry }

    /// Expired or refunded: nothing more will happen to it unless it is bought again.
    public var isOver: Bool { state == .expired || state == .revoked }
}
