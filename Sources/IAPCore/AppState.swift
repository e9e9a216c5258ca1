import Foundation

/// Everything the app knows at one instant. The UI draws it; only the reducer changes it.
public struct AppState: Sendable, Equatable {
    public enum ProductsStatus: Sendable, Equatable { case loading, loaded, empty, failed }

    /// The purchase the user started from the product list.
    public struct Purchase: Sendable, Equatable {
        public let user: String
        public let productId: String
        /// The payment's identity once the intent for it is written: it claims only the transaction it produced.
        public var paymentId: Int64?
        public var transactionId: String?
        /// StoreKit 2: the buyer's token the payment will carry, kept with the purchase so that a user switched in
        /// meanwhile never lends it theirs.
        public var appAccountToken: UUID?
        /// StoreKit 2: the purchase waits for the backend's answer about the token before it asks for an order.
        public var awaitingToken: Bool

        /// The promotional offer asked for, and once the app's server signed it, its signature.
        public var offerId: String?
        public var offerSignature: OfferSignature?
        /// StoreKit 2: the server's signed word on the intro offer, which came with the order.
        public var introductoryOfferEligibility: String?
        /// StoreKit 2: the win-back offer the purchase takes, which needs no signature.
        public var winBackOfferId: String?
        /// StoreKit 2: the billing plan chosen on the paywall.
        public var billingPlan: BillingPlan?

        /// Nothing else sets its price: no promotional or win-back offer, no billing plan. Only then may the product's
        /// intro offer apply.
        var mayTakeIntroOffer: Bool { offerId == nil && winBackOfferId == nil && billingPlan == nil }

        public init(user: String, productId: String, paymentId: Int64? = nil, transactionId: String? = nil, appAccountToken: UUID? = nil,
                    awaitingToken: Bool = false, offerId: String? = nil) {
            self.user = user
            self.productId = productId
            self.paymentId = paymentId
            self.transactionId = transactionId
            self.appAccountToken = appAccountToken
            self.awaitingToken = awaitingToken
            self.offerId = offerId
        }
    }

    public var lang: Language
    public var policy: VerifyPolicy
    /// C9: no new purchase while an order is unfinished.
    public var serialPurchases: Bool
    /// The StoreKit the client is written against (`--storekit`, a script's `# storekit:`).
    public var storeKit: StoreKitMode
    /// The built-in backend runs as a modern server (`--server-api`): shown on the badge line, never read by the client.
    public var serverAPIBackend = false
    public var now: Date

    /// Where Apple's endpoints are served while the app runs (`--serve`): shown, never acted on.
    public var servingAt: String?
    /// A copy of the fault board the parties obey, refreshed by the runtime on every change; the reducer never writes it.
    public var faults: ArmedFaults = []
    public var products: [Product] = []
    public var productsStatus = ProductsStatus.loading
    /// The shell's: what is on screen apart from the app's own state.
    public var loginText = ""
    /// The name on the login screen met the rule's edge (blank at Enter, a character past the longest): the box says the
    /// rule instead of its hint until typing goes on.
    public var loginRefused = false
    public var selection = 0
    /// Where each list panel was left, by its state id: it opens there again.
    public var panelRows: [String: Int] = [:]
    /// How many pages back from the newest the inspector's timeline shows (PgUp, PgDn); 0 follows the newest. A page is
    /// what the screen has room for, which only the renderer knows.
    public var timelinePagesBack = 0
    /// The product the cursor goes to when the product list next loads (a scenario handed over where its script left it).
    public var selectOnLoad: String?
    /// The promotional offer the paywall shows for a product (chosen with `o`): buying it asks the server to sign it.
    public var offerChoices: [String: String] = [:]
    /// StoreKit 2: the one-year subscriptions whose plan "monthly with a 12-month commitment" the paywall shows (`o`).
    public var monthlyPlanChoices: Set<String> = []
    public var modal: Modal?
    public var quitting = false
    /// The scenarios the UI can start (shipped beside the binary), read when the list is first opened.
    public var scenarios: [ScenarioInfo] = []
    /// Every device of the data, as the devices panel last read them.
    public var devices: [DeviceSummary] = []

    /// What this device knows whoever is logged in: payments, the store's queue as seen, the HUD, alarms.
    public var device = Device()
    /// The logged-in user's side: nil when nobody is logged in.
    public var session: Session?

    public init(lang: Language = .en, policy: VerifyPolicy = VerifyPolicy(), serialPurchases: Bool = true, storeKit: StoreKitMode = .one,
                now: Date = Date(timeIntervalSince1970: 0)) {
        self.lang = lang
        self.policy = policy
        self.serialPurchases = serialPurchases
        self.storeKit = storeKit
        self.now = now
    }

    public func product(_ id: String) -> Product? {
        products.first { $0.id == id }
    }

    /// What support's compensation settles (B5): the oldest pending order with an order id, which the backend knows.
    public var compensableOrder: PendingOrder? {
        pendingOrders.first { $0.orderId != nil }
    }

    /// The inspector is on screen (alone, under the question it asks, or under an explanation of it).
    public var showsInspector: Bool { Self.showsInspector(modal) }

    private static func showsInspector(_ modal: Modal?) -> Bool {
        switch modal {
        case .inspector, .compensateConfirm: true
        case let .explain(_, under, _): showsInspector(under)
        default: false
        }
    }

    public var selectedProduct: Product? {
        products.indices.contains(selection) ? products[selection] : nil
    }

    /// The identifiers the app is built with (seeds 000, 004): while the product request has failed or come back empty,
    /// the shop lists them, and a purchase can still be made by identifier.
    public var productIdentifiers: [String] = []

    /// What the shop lists: the products, or, while there are none, the identifiers to buy by.
    public var shopIdentifiers: [String] {
        switch productsStatus {
        case .loaded: products.map(\.id)
        case .failed, .empty: productIdentifiers
        case .loading: []
        }
    }

    // The device's parts the screens and the tests read most, by their old names.
    public var purchase: Purchase? { get { device.purchase } set { device.purchase = newValue } }
    public var hud: HUD? { get { device.hud } set { device.hud = newValue } }
    public var alarms: [Alarm] { get { device.alarms } set { device.alarms = newValue } }
    public var unclaimed: [StoreTransaction] { get { device.unclaimed } set { device.unclaimed = newValue } }

    /// Who is logged in. Setting it is for screens drawn from made-up states (the gallery, tests): it names the session,
    /// starting one if there is none. The reducer starts and drops sessions itself, never by renaming one.
    public var user: String? {
        get { session?.user }
        set {
            if let newValue, session != nil {
                session?.user = newValue
            } else {
                session = newValue.map(Session.init(user:))
            }
        }
    }

    public var account: Account { session?.account ?? Account() }

    /// The logged-in user's subscriptions, as the store reports them.
    public var subscriptions: [SubscriptionStatus] { session?.subscriptions ?? [] }

    /// The status of the subscription a product belongs to, for the logged-in user: the group's, shown on the product
    /// it is for (a product of the group they are not on shows none).
    public func subscriptionStatus(of productId: String) -> SubscriptionStatus? {
        subscriptions.first { $0.productId == productId }
    }

    /// The product's intro offer, when the signed-in Apple ID may still have it: Apple gives it once per subscription
    /// group, so not once the Apple ID has or had any subscription of the group (what StoreKit 2's
    /// `isEligibleForIntroOffer` says, and a StoreKit 1 app reads from the receipt).
    public func introOffer(for product: Product) -> IntroOffer? {
        guard let terms = product.subscription, let intro = terms.introOffer else { return nil }
        let hadOne = subscriptions.contains { self.product($0.productId)?.subscription?.group == terms.group }
        // StoreKit 2 pays with the server's word, which withholds it from a user who subscribed in the group before.
        let withheld = storeKit == .two && account.subscribedGroups.contains(terms.group)
        return hadOne || withheld ? nil : intro
    }

    /// The win-back offer StoreKit 2 would apply to buying the product again: the best of those the store's renewal info
    /// says the signed-in Apple ID may take, for the subscription that churned. StoreKit 1 has no purchase option for it.
    public func winBackOffer(for product: Product) -> SubscriptionOffer? {
        guard storeKit == .two, let terms = product.subscription, let status = subscriptionStatus(of: product.id), status.isOver else { return nil }
        return status.eligibleWinBackOfferIds.lazy.compactMap(terms.winBackOffer).first
    }

    /// The highlighted product's subscription status, if it has one.
    public var selectedSubscription: SubscriptionStatus? {
        selectedProduct.flatMap { subscriptionStatus(of: $0.id) }
    }

    /// The logged-in user's orders in memory.
    public var orders: [String: PendingOrder] { session?.orders ?? [:] }

    /// The pending orders in memory, in queue order: what the logout warning lists first (I6).
    public var pendingOrders: [PendingOrder] {
        guard let session else { return [] }
        return session.pendingIds.compactMap { session.orders[$0] }
    }

    /// The ids of the pending orders in memory, in queue order.
    public var pendingIds: [String] { session?.pendingIds ?? [] }

    /// Orders not yet credited, in all: what the status line counts and logout warns about (I6).
    public var pendingCount: Int { session?.pendingTotal ?? 0 }

    /// What tries a pending order again: the HUD and the inspector say it alike.
    public enum NextRetry: Sendable, Equatable {
        /// Automatically, at this time (due already when it has passed).
        case at(Date)
        /// Its quick retries are spent (C10): a trigger (the foreground, the network back, a purchase) tries it again.
        case trigger
        /// The user chose Later: the next trigger.
        case putOff
        /// The backend's setup is wrong: the next session (a launch or a login) or the user's Continue, no trigger.
        case nextSession
        /// Its prompt (found at launch or login, or offered before a purchase) waits for the user: Continue tries it.
        case asked
    }

    public func nextRetry(for order: PendingOrder) -> NextRetry {
        guard let queue = session?.queue else { return .nextSession }
        if queue.snoozed.contains(order.transactionId) { return .putOff }
        if queue.held.contains(order.transactionId) { return .nextSession }
        if session?.prompts.contains(order.transactionId) == true { return .asked }
        return queue.nextAttempt(for: order, policy: policy).map(NextRetry.at) ?? .trigger
    }
}

/// The heads-up display over the product list: one wait or one outcome.
public struct HUD: Sendable, Equatable {
    public enum Kind: Sendable, Equatable, CaseIterable {
        case purchasing, alreadyOwned, confirming, success, restoring, restored, nothingToRestore, restoreFailed, failed, cancelled, deferred,
             disabled, verifyFailed, jailbroken, backgrounded
        /// A move to a lower or equal level of a subscribed group: nothing charged, the next renewal changes the plan.
        case planChanged
        /// Another Apple ID signed in while the payment sheet was up: the payment is the first one's, and finishes when
        /// it signs in again.
        case appleIdChanged
        /// The payment sheet of a subscription the Apple ID is already on (another app account of it, or the same):
        /// Apple charges nothing.
        case alreadySubscribed
        /// The backend keeps what was bought again or restored with the app user who had it (A2's "keep").
        case otherAccount
        /// What this Apple ID had through Family Sharing is no longer shared with it (A4).
        case familyRevoked
        /// Apple refused the promotional offer the payment asked for (`error` says which of StoreKit's errors), or the
        /// app's server did not sign it (no `error`): nothing was charged.
        case offerRefused
        /// The App Store's redemption sheet took an offer code: what it starts (`transactionId`) arrives as any
        /// purchase does; without one, the offer starts at the next renewal.
        case codeRedeemed

        /// A wait, as opposed to an outcome that Esc dismisses.
        public var isWaiting: Bool { isPaymentSheet || self == .confirming || self == .restoring }

        /// The payment sheet is up: Esc is its Cancel.
        public var isPaymentSheet: Bool { self == .purchasing || isFreeSheet }

        /// Apple's sheet for what the Apple ID has already: nothing to pay.
        public var isFreeSheet: Bool { self == .alreadyOwned || self == .alreadySubscribed }
    }

    public var kind: Kind
    public var productId: String?
    public var transactionId: String?
    /// How many purchases a restore brought back; nil for one product's HUD.
    public var count: Int?
    /// The store's error behind an outcome (an offer's refusal).
    public var error: StoreError?
    /// What the sheet charges, when not the regular price; it stays with the purchase's HUD to its outcome.
    public var charge: Charge?

    /// What a purchase is charged at, other than the product's regular price.
    public struct Charge: Sendable, Equatable {
        /// The promotional or win-back offer the purchase asks for.
        public var offerId: String?
        /// StoreKit 2: the billing plan the purchase asks for (monthly with a 12-month commitment).
        public var billingPlan: BillingPlan?
        /// The intro offer the Apple ID was eligible for when it pressed Buy ("Free for 1 week").
        public var intro: IntroOffer?
        /// Apple's sheet said the Apple ID owns it already: nothing is charged (S7).
        public var free = false
        /// An offer code the App Store's redemption sheet took: it charges the code's price, which the app is not told.
        public var redeemed = false

        public init(offerId: String? = nil, billingPlan: BillingPlan? = nil, intro: IntroOffer? = nil, free: Bool = false, redeemed: Bool = false) {
            self.offerId = offerId
            self.billingPlan = billingPlan
            self.intro = intro
            self.free = free
            self.redeemed = redeemed
        }
    }

    public init(_ kind: Kind, productId: String? = nil, transactionId: String? = nil, count: Int? = nil, error: StoreError? = nil,
                charge: Charge? = nil) {
        self.kind = kind
        self.charge = charge
        self.productId = productId
        self.transactionId = transactionId
        self.count = count
        self.error = error
    }
}

/// A dialog that takes the keys until answered.
public indirect enum Modal: Sendable, Equatable {
    /// Every key; `page` is counted round however many pages the screen needs (PgDn past the last gives the first again).
    /// Closing it gives back what was open `under` it.
    case help(page: Int, under: Modal? = nil)
    case quitConfirm
    /// `choice` 0 is Continue (the default), 1 is Later.
    case unfinished(transactionId: String, choice: Int)
    /// `choice` 0 is Stay (the default), 1 is Log out anyway.
    case logoutWarning(choice: Int)
    /// QA's fault panel; `selection` indexes `FaultPanelRow.all`.
    case faultPanel(selection: Int)
    /// The shipped scenarios; `selection` indexes `AppState.scenarios`.
    case scenarios(selection: Int)
    /// The three parties side by side, and the event timeline.
    case inspector
    /// Over the inspector: compensate this order by hand? (B5; `y` yes, Esc no)
    case compensateConfirm(orderId: String, transactionId: String)
    /// The explanation of the state on screen (`stateId`), over what was open before.
    /// `page`: which page of it a small terminal shows, counted round as help's are (one past the last is the first).
    case explain(stateId: String, under: Modal?, page: Int = 0)
    /// Every state with its explanation; `selection` indexes `VisibleState.ids`.
    case stateCatalog(selection: Int)
    /// Settings › Subscriptions: the user's subscriptions; `selection` indexes `Session.subscriptions`.
    case subscriptions(selection: Int)
    /// A list panel registered since (`ListPanels`), by its name; `selection` indexes its rows.
    case panel(PanelID, selection: Int)
    /// StoreKit's offer code redemption sheet, with the code typed so far.
    case redeemCode(text: String)
}
