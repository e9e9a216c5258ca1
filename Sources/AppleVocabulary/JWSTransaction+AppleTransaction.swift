import Foundation
import IAPCore

/// What every signed payload shares: the one environment iapsim's App Store signs for.
public enum AppleSandbox {
    /// iapsim is a sandbox: what it signs never passes for a production purchase.
    public static let environment = "Sandbox"
    public static let bundleVersion = "1"
}

/// A store transaction in Apple's signed words: the wire's, and StoreKit 2's `jwsRepresentation` on the device.
extension JWSTransaction {
    public init(_ transaction: AppleTransaction, signedAt signed: Date) {
        self.init()
        let entry = transaction.entry
        let ms = { (text: String?) in text.flatMap(Int64.init) }
        originalTransactionId = entry.original_transaction_id
        transactionId = entry.transaction_id
        webOrderLineItemId = entry.web_order_line_item_id
        bundleId = Receipt.bundleId
        productId = entry.product_id
        subscriptionGroupIdentifier = entry.subscription_group_identifier
        purchaseDate = ms(entry.purchase_date_ms) ?? 0
        originalPurchaseDate = ms(entry.original_purchase_date_ms) ?? purchaseDate
        expiresDate = ms(entry.expires_date_ms)
        quantity = Int(entry.quantity) ?? 1
        type = transaction.product.map { Self.type(of: $0.kind) } ?? "Consumable"
        appAccountToken = transaction.signedAccountToken
        inAppOwnershipType = entry.in_app_ownership_type ?? "PURCHASED"
        signedDate = AppleDate.milliseconds(signed)
        if entry.isRefunded {
            revocationReason = entry.cancellation_reason.flatMap(Int.init)
            revocationDate = ms(entry.cancellation_date_ms)
        } else if entry.cancellation_date_ms != nil {
            isUpgraded = true
        }
        if entry.is_trial_period == "true" || entry.is_in_intro_offer_period == "true" {
            offerType = 1
        } else if let offer = entry.promotional_offer_id {
            offerType = 2
            offerIdentifier = offer
        } else if let code = entry.offer_code_ref_name {
            offerType = 3
            offerIdentifier = code
        } else if let winBack = transaction.winBackOfferId {
            offerType = 4
            offerIdentifier = winBack
        }
        let offer = offerType == nil ? nil : transaction.offerTerms
        if let offer {
            offerDiscountType = offer.appleDiscountType
            offerPeriod = offer.applePeriod
        } else if entry.is_trial_period == "true" {
            offerDiscountType = "FREE_TRIAL"
        }
        appTransactionId = transaction.appTransactionId
        if let charged = transaction.product.flatMap({ AppleTransaction.price(of: $0, at: offer, monthly: transaction.commitment != nil) }) {
            price = charged.milliunits
            currency = charged.currency
        }
        if let plan = transaction.product?.subscription?.monthlyCommitment {
            // A subscription sold with billing plans says which one each charge is.
            billingPlanType = transaction.commitment == nil ? BillingPlan.upFront.rawValue : BillingPlan.monthly.rawValue
            commitmentInfo = transaction.commitment.map {
                CommitmentInfo(billingPeriodNumber: $0.billingPeriod, totalBillingPeriods: CommitmentPlan.billingPeriods,
                               commitmentExpiresDate: AppleDate.milliseconds($0.endsAt), commitmentPrice: plan.totalMilliunits)
            }
        }
        environment = AppleSandbox.environment
        transactionReason = transaction.isRenewal ? "RENEWAL" : "PURCHASE"
        let bought = Storefront(of: transaction.product)
        (storefront, storefrontId) = (bought.code, bought.id)
    }

    static func type(of kind: Product.Kind) -> String {
        switch kind {
        case .consumable: "Consumable"
        case .nonConsumable: "Non-Consumable"
        case .subscription: "Auto-Renewable Subscription"
        case .nonRenewing: "Non-Renewing Subscription"
        }
    }

    /// The same kind as Get Transaction History's `productType` filter names it.
    public static func historyProductType(of kind: Product.Kind) -> String {
        switch kind {
        case .consumable: "CONSUMABLE"
        case .nonConsumable: "NON_CONSUMABLE"
        case .subscription: "AUTO_RENEWABLE"
        case .nonRenewing: "NON_RENEWABLE"
        }
    }
}
