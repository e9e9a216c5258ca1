import Foundation

/// Everything that can happen to the app: a key, or the answer of a party to an effect.
public enum Action: Sendable, Equatable {
    case launched(canMakePayments: Bool, user: String?)
    case key(Key)
    /// What the person asked for, said without a key (a script, a test); keys become these in the shell.
    case intent(Intent)
    case productsLoaded(Result<[Product], StoreRequestError>)
    case userLoaded(String, UserSnapshot?)
    case accountLoaded(String, Account)
    case subscriptionsLoaded(String, [SubscriptionStatus])
    /// The backend's order for the purchase (or none), and in StoreKit 2 its signed word on the intro offer.
    case orderCreated(user: String, productId: String, Result<String, BackendError>, introductoryOfferEligibility: IntroOfferEligibility? = nil)
    /// StoreKit 2: the backend's `appAccountToken` for the user.
    case appAccountTokenFetched(user: String, Result<UUID, BackendError>)
    /// The app's server signed the promotional offer for the payment carrying `applicationUsername` (or could not).
    case offerSigned(user: String, productId: String, applicationUsername: String?, Result<OfferSignature, BackendError>)
    /// The App Store redeemed the code (the transaction it started, nil: the offer starts at the next renewal) or refused it.
    case codeRedeemed(code: String, Result<String?, StoreError>)
    /// The intent for a payment is on disk (nil: the write failed, so the app does not pay).
    case intentRecorded(user: String, productId: String, PaymentIntent?)
    /// The store's news, with what the client's store already holds of it; `more`: further batches of the same reading
    /// of the queue follow.
    case storeUpdated([StoreTransaction], held: [String: HeldOrder] = [:], more: Bool = false)
    /// The next page of the logged-in user's backlog (nil: it could not be read).
    case pendingPageLoaded(user: String, PendingPage?)
    /// The store answered a restore for `user`'s store account: the transactions it restored, or a failure.
    case restoreAnswered(user: String, Result<[String], StoreRequestError>)
    /// StoreKit 2: the app's server answered one entitlement sent for the user who restored.
    case entitlementSent(user: String, transactionId: String, VerifyOutcome)
    /// The payment sheet's Cancel was answered: false when Apple had already taken the payment.
    case cancelAnswered(transactionId: String, cancelled: Bool)
    /// Apple's answer to support's refund of the Apple ID's latest purchase: the transaction refunded and its product, nil
    /// when the Apple ID had nothing unrefunded.
    case refundAnswered(user: String, transactionId: String?, productId: String?)
    /// Support tied a transaction no evidence could attribute to the user who paid (from Apple's records).
    case assignToBuyer(transactionId: String, user: String)
    case persisted(PendingOrder, ok: Bool)
    case verified(PendingOrder, VerifyOutcome)
    case finished(transactionId: String, user: String?, found: Bool)
    case tick
    /// QA armed (an arm) or disarmed (nil) a fault: from the panel, a flag or a script.
    case setFault(Fault, FaultArm?)
    /// A party acted on an armed fault; a one-shot one is spent.
    case faultFired(Fault)
    /// The account changed under the app (another login, a session expiry): no warning, no questions.
    case switchUser(String)
    /// The app came back to the foreground: a trigger for the verify queue, and a fresh look at the account.
    case foreground
    case setLanguage(Language)
    case scenariosListed([ScenarioInfo])
    case devicesListed([DeviceSummary])
    /// A party could not do its own bookkeeping; shown, never swallowed.
    case alarm(Alarm)
    /// The backend took these alarms (or could not be reached).
    case alarmsReported([Device.RaisedAlarm], ok: Bool)
    /// The store signed this Apple ID in on the device (A1).
    case appleIdSignedIn(String)
    /// StoreKit's `paymentQueue(_:didRevokeEntitlementsForProductIdentifiers:)`: what this Apple ID had through Family
    /// Sharing is no longer shared with it (A4).
    case entitlementsRevoked([String])
    /// The program around the app serves Apple's endpoints at this address (`--serve`), or stopped (nil).
    case serving(String?)
}

/// One key press, already decoded by the terminal layer.
public enum Key: Hashable, Sendable {
    case char(Character)
    case up, down, left, right, enter, escape, backspace, tab, pageUp, pageDown, home, end
}
