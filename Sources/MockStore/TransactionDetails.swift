import Foundation
import GRDB
import IAPCore

/// The fields of a transaction that subscriptions and refunds fill, as Apple names them in a receipt.
public struct TransactionDetails: Sendable, Equatable {
    public enum Offer: String, Sendable, Equatable {
        /// `is_trial_period`
        case trial
        /// `is_in_intro_offer_period` (pay as you go, pay up front)
        case intro
        /// A promotional offer (`promotional_offer_id` names it; offerType 2 in a signed transaction)
        case promotional
        /// An offer code's offer (`offer_code_ref_name`; offerType 3)
        case code
        /// A win-back offer (offerType 4; the receipt has no field for it)
        case winBack
    }

    public var expiresDate: Date?
    public var offer: Offer?
    public var cancellationDate: Date?
    /// Apple's `cancellation_reason`: 1 an issue in the app, 0 another reason.
    public var cancellationReason: Int?
    public var webOrderLineItemId: String?
    /// The share of an upgraded-from period refunded (prorated) when the upgrade took effect.
    public var refundedShare: Double?
    /// A family member's, through another Apple ID's purchase (Apple's `in_app_ownership_type` FAMILY_SHARED): written
    /// once with the transaction, never by `setDetails`.
    public var familyShared = false
    /// The promotional offer the charge was priced at (`promotional_offer_id`); on a payment not yet charged, the
    /// offer it was signed for.
    public var offerId: String?
    /// A charge of the plan "monthly with a 12-month commitment": which month of the commitment it pays (1 to 12), and
    /// when the commitment ends. Nil for a charge paid up front.
    public var billingPeriod: Int?
    public var commitmentEndsAt: Date?

    public init(expiresDate: Date? = nil, offer: Offer? = nil, cancellationDate: Date? = nil, cancellationReason: Int? = nil,
                webOrderLineItemId: String? = nil, refundedShare: Double? = nil) {
        self.expiresDate = expiresDate
        self.offer = offer
        self.cancellationDate = cancellationDate
        self.cancellationReason = cancellationReason
        self.webOrderLineItemId = webOrderLineItemId
        self.refundedShare = refundedShare
    }

    static let columns = "expiresDate, offer, cancellationDate, cancellationReason, webOrderLineItemId, refundedShare, sharedFrom, offerId, "
        + "billingPeriod, commitmentEndsAt"

    /// From a row of `storeTransaction` that selected `columns`, by name.
    init(row: Row) {
        let date = { (name: String) in row.real(name).map(Date.init(timeIntervalSince1970:)) }
        self.init(expiresDate: date("expiresDate"), offer: row.text("offer").flatMap(Offer.init(rawValue:)),
                  cancellationDate: date("cancellationDate"), cancellationReason: row["cancellationReason"],
                  webOrderLineItemId: row.text("webOrderLineItemId"), refundedShare: row.real("refundedShare"))
        familyShared = row.text("sharedFrom") != nil
        offerId = row.text("offerId")
        billingPeriod = row["billingPeriod"]
        commitmentEndsAt = date("commitmentEndsAt")
    }

    /// What offer priced a new subscription's or a resubscription's first charge: the offer named (a promotional offer
    /// or a code's, by `kind`), else the intro offer given (`intro`), as a free trial or an intro price.
    mutating func mark(_ offer: SubscriptionOffer?, kind: Offer, intro: IntroOffer?) {
        switch (offer, intro?.mode) {
        case let (offer?, _): (self.offer, offerId) = (kind, offer.id)
        case (nil, .freeTrial?): self.offer = .trial
        case (nil, .payAsYouGo?), (nil, .payUpFront?): self.offer = .intro
        case (nil, nil): break
        }
    }

    /// Apple refunded the transaction: it keeps its place in the history with the date and reason.
    func refunded(at date: Date, reason: Int) -> TransactionDetails {
        var refunded = self
        refunded.cancellationDate = date
        refunded.cancellationReason = reason
        return refunded
    }

    /// The fields a re-delivery of this charge carries (a restore, a free re-buy): the charge's own, without what ended it
    /// early.
    var repeated: TransactionDetails {
        var repeated = self
        repeated.cancellationDate = nil
        repeated.refundedShare = nil
        return repeated
    }

    /// The charge a transaction repeats: Apple refunds what it charged, and a free re-buy or a restore (S7) charged
    /// nothing. A subscription's is the charged transaction of its web order line item (`chargeOfWebOrder`), anything
    /// else's its original.
    static func charge(repeatedBy id: String, original: String?, webOrder: String?, chargeOfWebOrder: String?) -> String {
        webOrder == nil ? original ?? id : chargeOfWebOrder ?? id
    }
}
