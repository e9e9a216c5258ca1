import Foundation
import IAPCore

extension AppleTransaction {
    /// The `appAccountToken` Apple signs: the one a team's server set on the chain, else the purchase's
    /// `applicationUsername` when it is a UUID, as StoreKit carries it over.
    public var signedAccountToken: String? {
        (appAccountToken ?? applicationUsername.flatMap(UUID.init(uuidString:)))?.uuidString.lowercased()
    }

    /// The offer that priced this charge, as Apple records it with the purchase: the one named on it (a promotional
    /// offer, an offer code, a win-back offer), else the introductory offer it was bought or renewed at.
    public var offerTerms: IntroOffer? {
        guard let terms = product?.subscription else { return nil }
        if let named = entry.promotional_offer_id ?? entry.offer_code_ref_name ?? winBackOfferId, let offer = terms.offer(named: named) {
            return offer.terms
        }
        let intro = entry.is_trial_period == "true" || entry.is_in_intro_offer_period == "true"
        return intro ? terms.introOffer : nil
    }

    /// What a charge of `product` costs at `offer` (nil: none), or monthly when `monthly`, in thousandths of the catalog's
    /// currency, as the Server API writes `price` and `renewalPrice` with their `currency`: an offer's price (a free
    /// trial's nothing), a month of a 12-month commitment its monthly price, else the product's. Nil when the catalog
    /// names no currency or the price holds no amount.
    public static func price(of product: Product, at offer: IntroOffer?, monthly: Bool) -> (milliunits: Int64, currency: String)? {
        guard let listed = product.amount else { return nil }
        let shown: Localized?
        if let offer {
            shown = offer.mode == .freeTrial ? nil : offer.price
        } else if monthly, let plan = product.subscription?.monthlyCommitment {
            shown = plan.monthlyPrice
        } else {
            return (listed.amount.milliunits, listed.currency)
        }
        guard let shown else { return (0, listed.currency) }
        return CommitmentPlan.amount(shown).map { ($0.milliunits, listed.currency) }
    }
}

extension IntroOffer {
    /// Apple's `offerDiscountType`.
    public var appleDiscountType: String {
        switch mode {
        case .freeTrial: "FREE_TRIAL"
        case .payAsYouGo: "PAY_AS_YOU_GO"
        case .payUpFront: "PAY_UP_FRONT"
        }
    }

    /// Apple's `offerPeriod`: the whole offer, one period times their count (`P1M` twice is `P2M`).
    public var applePeriod: String {
        SubscriptionPeriod(years: period.years * periods, months: period.months * periods, weeks: period.weeks * periods,
                           days: period.days * periods).description
    }
}
