import AppleVocabulary
import Foundation

/// The shape `iapsim state` prints. Keys are a contract with QA scripts and the campaign: the camelCase ones have
/// been there from the start and never change; Apple's own (`original_transaction_id`, `expires_date_ms`…) are
/// spelt and typed as Apple writes them in a receipt (milliseconds and flags as strings), and appear only where
/// they apply. The older keys print `null` when empty, as they always did.
struct StateDocument: Encodable {
    let store: StorePart
    let backend: BackendPart
    let client: ClientPart
    /// What each user holds, by the parties' rules: everyone the store or the backend knows.
    let accounts: [String: UserHoldings]
    /// The instant `owned` is judged at, ISO 8601: the store's clock when it last acted.
    let asOf: String

    struct StorePart: Encodable {
        let transactions: [StoreTransactionEntry]
        /// Each Apple ID signed in on a device (A1): where, and its subscription chains as StoreKit reports them.
        let appleIds: [String: AppleIdEntry]
        /// The Apple IDs of each family (A4): what one buys of a family-shareable product, the others own
        /// (`apple.in_app_ownership_type` FAMILY_SHARED on their transactions).
        let families: [[String]]
        /// Each one-time offer code the store made (catalog `oneTimeCodes`), and the Apple ID that redeemed it.
        let oneTimeCodes: [OneTimeCodeEntry]
    }

    struct OneTimeCodeEntry: Encodable {
        let code: String
        let offerId: String
        let productId: String
        let redeemedBy: String?
        let redeemedAt: String?
    }

    struct AppleIdEntry: Encodable {
        let signedInOn: [String]
        let subscriptions: [SubscriptionEntry]
    }

    struct BackendPart: Encodable {
        let credits: [CreditEntry]
        /// What the backend keeps asking Apple itself (its own queue), the soonest first.
        let appleQueue: [AppleQueueEntry]
        /// Alarms the clients uploaded, oldest first.
        let clientAlarms: [AlarmEntry]
        /// Receipts sent again for a decided transaction, oldest first.
        let receiptReplays: [ReplayEntry]
        /// What the backend does when an app user restores or buys again what another app user of the Apple ID holds.
        let restorePolicy: String
        /// Every purchase the policy moved or shared from one app user to another, oldest first (the credit stays).
        let transfers: [TransferEntry]

        struct TransferEntry: Encodable {
            let originalTransactionId, productId, from, to, policy, at: String
        }

        struct AppleQueueEntry: Encodable {
            let transactionId, user, productId: String
            let orderId: String?
            let attempts, lastStatus: Int
            let nextAt: String
        }

        struct AlarmEntry: Encodable {
            let device: String
            let user: String?
            let kind: String
            let transactionId: String?
            let text, raisedAt, receivedAt: String
        }

        struct ReplayEntry: Encodable {
            let receiptHash, transactionId, user, firstUser, at: String
        }
    }

    struct ClientPart: Encodable {
        /// The first device's keychain, as it always was.
        let users: [String: ClientUser]
        /// Every other device's, by its name.
        let devices: [String: DeviceEntry]
    }

    struct DeviceEntry: Encodable {
        let users: [String: ClientUser]
    }
}

/// One transaction as Apple holds it.
struct StoreTransactionEntry: Encodable {
    let transactionId: String
    let productId: String
    let state: String
    let finished: Bool
    let applicationUsername: String?
    let error: String?
    /// The store account charged; nil in a file written before accounts were recorded.
    let account: String?
    /// As the store keeps it: set only on what continues an earlier purchase (a restore, a renewal).
    let originalTransactionId: String?
    /// The device whose queue it is in; empty for a family member's own transaction, which Apple finished on no device
    /// (written as null).
    let device: String
    /// Apple's customer order id (the e-mail receipt's), for a charge; not the app's own (`applicationUsername`).
    let appleOrderId: String?
    /// What the team's server last told Apple of its consumption (Send Consumption Information), as the JSON it sent.
    let consumption: String?
    /// StoreKit 2's link to the app's account: the token the purchase carried (or its chain's, or the one a team's
    /// server set); absent when none.
    let appAccountToken: String?
    /// Apple's fields, for what Apple lists in a receipt (purchased and restored transactions); nil otherwise.
    var apple: Receipt.Entry?
    /// What a signed transaction says and the receipt cannot: the win-back offer that priced the charge (offerType 4),
    /// and its month of a 12-month commitment (`billingPeriodNumber`).
    var winBackOfferId: String?
    var billingPeriod: Int?
    /// The app users who hold the purchase it is or repeats, by the backend's restore policy: what is owned for ever and
    /// subscriptions, once the backend has credited it.
    var heldBy: [String]?

    private enum Key: String, CodingKey {
        case transactionId, productId, state, finished, applicationUsername, error, account, originalTransactionId, device, appleOrderId, consumption, heldBy
        case appAccountToken, winBackOfferId, billingPeriodNumber
        case original_transaction_id, purchase_date_ms, original_purchase_date_ms, subscription_group_identifier, expires_date_ms
        case is_trial_period, is_in_intro_offer_period, promotional_offer_id, offer_code_ref_name, web_order_line_item_id, cancellation_date_ms, cancellation_reason
        case in_app_ownership_type
    }

    func encode(to encoder: any Encoder) throws {
        var out = encoder.container(keyedBy: Key.self)
        try out.encode(transactionId, forKey: .transactionId)
        try out.encode(productId, forKey: .productId)
        try out.encode(state, forKey: .state)
        try out.encode(finished, forKey: .finished)
        // `encode` of an optional writes null: these keys were always present.
        try out.encode(applicationUsername, forKey: .applicationUsername)
        try out.encode(error, forKey: .error)
        try out.encode(account, forKey: .account)
        try out.encode(originalTransactionId, forKey: .originalTransactionId)
        try out.encode(device.isEmpty ? nil : device, forKey: .device)
        try out.encodeIfPresent(appleOrderId, forKey: .appleOrderId)
        try out.encodeIfPresent(consumption, forKey: .consumption)
        try out.encodeIfPresent(appAccountToken, forKey: .appAccountToken)
        try out.encodeIfPresent(heldBy, forKey: .heldBy)
        try out.encodeIfPresent(winBackOfferId, forKey: .winBackOfferId)
        try out.encodeIfPresent(billingPeriod, forKey: .billingPeriodNumber)
        guard let apple else { return }
        try out.encode(apple.original_transaction_id, forKey: .original_transaction_id)
        try out.encode(apple.purchase_date_ms, forKey: .purchase_date_ms)
        try out.encode(apple.original_purchase_date_ms, forKey: .original_purchase_date_ms)
        try out.encodeIfPresent(apple.subscription_group_identifier, forKey: .subscription_group_identifier)
        try out.encodeIfPresent(apple.expires_date_ms, forKey: .expires_date_ms)
        try out.encodeIfPresent(apple.is_trial_period, forKey: .is_trial_period)
        try out.encodeIfPresent(apple.is_in_intro_offer_period, forKey: .is_in_intro_offer_period)
        try out.encodeIfPresent(apple.promotional_offer_id, forKey: .promotional_offer_id)
        try out.encodeIfPresent(apple.offer_code_ref_name, forKey: .offer_code_ref_name)
        try out.encodeIfPresent(apple.web_order_line_item_id, forKey: .web_order_line_item_id)
        try out.encodeIfPresent(apple.cancellation_date_ms, forKey: .cancellation_date_ms)
        try out.encodeIfPresent(apple.cancellation_reason, forKey: .cancellation_reason)
        try out.encodeIfPresent(apple.in_app_ownership_type, forKey: .in_app_ownership_type)
    }
}

struct CreditEntry: Encodable {
    let transactionId: String
    let user: String
    let productId: String
    let orderId: String
    let coins: Int
}

struct ClientUser: Encodable {
    let pending: [PendingEntry]
    let openIntents: [IntentEntry]

    struct PendingEntry: Encodable {
        let transactionId: String
        let productId: String
        let orderId: String?
        let attempts: Int
        let status: String

        private enum Key: String, CodingKey { case transactionId, productId, orderId, attempts, status }

        func encode(to encoder: any Encoder) throws {
            var out = encoder.container(keyedBy: Key.self)
            try out.encode(transactionId, forKey: .transactionId)
            try out.encode(productId, forKey: .productId)
            try out.encode(orderId, forKey: .orderId)
            try out.encode(attempts, forKey: .attempts)
            try out.encode(status, forKey: .status)
        }
    }

    struct IntentEntry: Encodable {
        let id: Int64
        let productId: String
        let orderId: String?
        let interrupted: Bool

        private enum Key: String, CodingKey { case id, productId, orderId, interrupted }

        func encode(to encoder: any Encoder) throws {
            var out = encoder.container(keyedBy: Key.self)
            try out.encode(id, forKey: .id)
            try out.encode(productId, forKey: .productId)
            try out.encode(orderId, forKey: .orderId)
            try out.encode(interrupted, forKey: .interrupted)
        }
    }
}

/// What one user holds, each list by the rule of the party that decides it.
struct UserHoldings: Encodable {
    /// The backend's: products a live credit makes theirs (not consumables) and subscriptions whose entitlement
    /// (expiry, or the grace period while Apple retries) has not ended at `asOf`.
    let owned: [String]
    /// The store's: each of the account's subscription chains, as StoreKit reports it.
    let subscriptions: [SubscriptionEntry]
    /// The backend's: credits Apple took back, with when.
    let revokedCredits: [RevokedCreditEntry]
}

struct SubscriptionEntry: Encodable {
    let productId: String
    let subscription_group_identifier: String
    let original_transaction_id: String
    /// active, trial, cancelled, grace-period, billing-retry, expired or revoked.
    let status: String
    let expires_date_ms: String
    /// "1" renews at the period's end, "0" cancelled.
    let auto_renew_status: String
    /// What the next renewal charges (another product after a downgrade or crossgrade).
    let auto_renew_product_id: String
    /// "1" while Apple retries a failed renewal, "0" once it stopped; null when no renewal failed.
    let is_in_billing_retry_period: String?
    let grace_period_expires_date_ms: String?
    /// Once expired: "1" cancelled, "2" billing error, "4" no longer sold.
    let expiration_intent: String?
    /// When Apple refunded it (the chain is then revoked).
    let cancellation_date_ms: String?

    private enum Key: String, CodingKey {
        case productId, subscription_group_identifier, original_transaction_id, status, expires_date_ms, auto_renew_status
        case auto_renew_product_id, is_in_billing_retry_period, grace_period_expires_date_ms, expiration_intent, cancellation_date_ms
    }

    func encode(to encoder: any Encoder) throws {
        var out = encoder.container(keyedBy: Key.self)
        try out.encode(productId, forKey: .productId)
        try out.encode(subscription_group_identifier, forKey: .subscription_group_identifier)
        try out.encode(original_transaction_id, forKey: .original_transaction_id)
        try out.encode(status, forKey: .status)
        try out.encode(expires_date_ms, forKey: .expires_date_ms)
        try out.encode(auto_renew_status, forKey: .auto_renew_status)
        try out.encode(auto_renew_product_id, forKey: .auto_renew_product_id)
        // null when empty, as they were first printed
        try out.encode(is_in_billing_retry_period, forKey: .is_in_billing_retry_period)
        try out.encode(grace_period_expires_date_ms, forKey: .grace_period_expires_date_ms)
        try out.encode(expiration_intent, forKey: .expiration_intent)
        try out.encodeIfPresent(cancellation_date_ms, forKey: .cancellation_date_ms)
    }
}

struct RevokedCreditEntry: Encodable {
    let transactionId: String
    let productId: String
    let orderId: String
    let coins: Int
    let revokedAt_ms: String
}
