import AppleVocabulary
import Crypto
import Foundation
import IAPCore

/// StoreKit and Apple's servers in one: a payment queue whose transactions, and what Apple has decided will happen
/// to them, live in the store's database.
public final class MockPaymentQueue: PaymentQueue {
    /// How long Apple takes to answer, on the app's clock.
    public struct Latency: Sendable {
        public var products: Double
        public var payment: Double

        public init(products: Double = 0.3, payment: Double = 1.0) {
            self.products = products
            self.payment = payment
        }
    }

    public let faults: FaultBoard
    /// Where a failure of the store's own database is reported.
    public var onError: (String) -> Void = { _ in }
    /// Where Apple tells the built-in backend what happened without the app (a renewal, a refund, an expiry), from the
    /// store's outbox; nil: nobody hears, and the outbox keeps it for whoever will. Answers why the backend did not take
    /// it (nil: taken), which counts only when it hears through Apple's delivery (`--server-api`).
    public var onNotification: ((StoreNotification) -> String?)?
    /// Told of each attempt to deliver a notification to the built-in backend (`--server-api`), as it ended.
    public var onBackendAttempt: (OutboxEntry) -> Void = { _ in }
    /// Told (on the parties' thread) when the outbox has something new, for the `--notify` sender.
    public var onOutboxWritten: () -> Void = {}
    /// Told when a subscription changed on the store's clock, so that what the app shows of it is read again.
    public var onSubscriptionsChanged: () -> Void = {}
    /// What this device's Apple ID no longer has through Family Sharing (StoreKit's revocation callback).
    public var onEntitlementsRevoked: ([String]) -> Void = { _ in }

    public let database: StoreDatabase
    let catalog: [Product]
    /// Apple's records of this store, as its servers read them (the Server API, notifications, signed transactions).
    public let records: AppleRecords
    let scheduler: Scheduler
    let latency: Latency
    private var observer: (([StoreTransaction]) -> Void)?
    /// The payment each transaction of this process came from, as StoreKit hands back the same `SKPayment` object;
    /// a relaunch starts without it.
    private var paymentIds: [String: Int64] = [:]
    private let ownedOnce: Set<String>
    let subscriptionTerms: [String: SubscriptionTerms]
    private let renewalTimer = SoonestTimer()
    /// The timer for Apple's next delivery to the built-in backend (`--server-api`).
    let deliveryTimer = SoonestTimer()
    /// The signed receipt as last built: it lists the queue, so it holds until the queue changes (every change goes
    /// through this queue: the directory lock keeps other processes out), and a purchase is signed once, not again for
    /// each persist and verification.
    var signedReceipt: String?
    /// The receipt sealed last, kept when the queue changes: its bytes are still Apple's, and `verifyReceipt` knows them.
    private var lastSealed: SealedReceipt?

    /// `signer`: what signs with the chain `database` keeps (`ChainSigner.of`), asked for when a receipt or a
    /// transaction is first signed or checked, not at launch.
    public init(database: StoreDatabase, catalog: [Product], signer: @escaping (StoreDatabase) throws -> any StoreSigner,
                scheduler: Scheduler, latency: Latency = Latency(), faults: FaultBoard = FaultBoard()) throws {
        self.database = database
        makeSigner = signer
        self.faults = faults
        self.catalog = catalog
        records = AppleRecords(database: database, catalog: catalog)
        ownedOnce = Set(catalog.filter(\.kind.isOwnedOnce).map(\.id))
        subscriptionTerms = Dictionary(catalog.compactMap { product in product.subscription.map { (product.id, $0) } },
                                       uniquingKeysWith: { first, _ in first })
        self.scheduler = scheduler
        self.latency = latency
        database.outbox.askedBeforeRefund = Set(catalog.filter { $0.kind == .consumable || $0.kind == .subscription }.map(\.id))
        database.outbox.catalog = records.catalog
        database.familyShareable = Set(catalog.filter(\.familyShareable).map(\.id))
        let oneTime = subscriptionTerms.flatMap { productId, terms in
            terms.codeOffers.compactMap { offer in offer.codes.flatMap { $0.oneTimeCodes > 0 ? (offer.id, productId, $0.oneTimeCodes) : nil } }
        }
        try database.makeOneTimeCodes(oneTime)
    }

    /// Closes the store's database, as Apple's side shuts down with the app; nothing may be asked of the queue after.
    public func close() throws {
        // On the wall's time the next run starts later anyway: a note would only cost the quit a commit and its syncs.
        if !scheduler.isWallTime { noteTime() }
        try database.close()
    }

    /// The store's clock never runs backwards: a month skipped with `t`, or run through at `--speed`, stays skipped at
    /// the next launch, which starts no earlier than this.
    public var lastKnownTime: Date? { attempt { try database.clock() } ?? nil }

    /// Writes down how far the store's clock has come (after a skip, at quit).
    public func noteTime() {
        attempt { try database.noteClock(scheduler.now) }
    }

    /// Apple's `verifyReceipt`, which the app's server calls.
    public private(set) lazy var receiptService = AppleReceiptService(database: database, signer: { [unowned self] in signer },
                                                                             sealed: { [unowned self] in lastSealed },
                                                                             now: { [unowned self] in scheduler.now })

    private let makeSigner: (StoreDatabase) throws -> any StoreSigner
    /// The store's chain, read (or made, the first time) when a receipt or a transaction is first signed, not at launch.
    private lazy var signer: (any StoreSigner)? = attempt { try makeSigner(database) }

    /// The root of the chain that signs this store's receipts and transactions: what an app's server trusts as Apple's.
    public var trustedRoot: [UInt8]? { signer?.chain.last }

    public var canMakePayments: Bool { !faults.isArmed(.paymentsDisabled) }

    /// How long a parent takes to answer an Ask to Buy request.
    public static let askToBuyDecision = 10.0
    /// How long after the "failed" callback of an interrupted purchase the "purchased" one comes.
    public static let interruptionResolved = 2.0

    public func add(observer: @escaping ([StoreTransaction]) -> Void) {
        // What a kill kept the backend from hearing is told first, in the order it happened.
        deliverNews()
        catchUp()
        self.observer = observer
    }

    public func transactions(after cursor: StoreTransaction?, limit: Int) -> [StoreTransaction] {
        (attempt { try database.unfinished(after: cursor, limit: limit) } ?? []).map(identified)
    }

    public func requestProducts(_ completion: @escaping (Result<[Product], StoreRequestError>) -> Void) {
        let delay = latency.products + (faults.fire(.productsSlow).flatMap(Double.init) ?? 0)
        let result: Result<[Product], StoreRequestError> =
            faults.fire(.productsFail) != nil ? .failure(.failed) : .success(faults.fire(.productsEmpty) != nil ? [] : catalog)
        scheduler.after(delay) { completion(result) }
    }

    public func add(_ payment: Payment) {
        guard let product = catalog.first(where: { $0.id == payment.productId }) else {
            record(payment, state: .failed, error: .unknownProduct)
            return
        }
        if isBlocked(payment.productId) {
            // StoreKit will not sell a product again while its last transaction is unfinished.
            record(payment, state: .failed, error: .alreadyPending)
            return
        }
        var offerId: String?
        if let signature = payment.offerSignature {
            // Apple judges the offer's signature when the payment is added, and refuses the payment at once.
            let account = payment.pressedBy.map(database.appleId(for:))
            let terms = product.subscription
            let subscribed = account.flatMap { account in terms.flatMap { terms in attempt { try database.hasSubscribed(account: account, group: terms.group) } } } ?? false
            let verdict = PromotionalOfferCheck.judge(signature, payment: payment, terms: terms, key: offersKeyPair,
                                                      hasSubscribed: subscribed, bundleId: Receipt.bundleId, now: scheduler.now)
            guard let offer = accepted(verdict.map { ($0.offer, $0.nonce) }, for: payment) else { return }
            offerId = offer.id
        }
        if let id = payment.winBackOfferId {
            // StoreKit 2's win-back option carries no signature: Apple decides from the Apple ID's history, at once.
            guard let terms = product.subscription, terms.winBackOffer(id) != nil else {
                record(payment, state: .failed, error: .invalidOfferIdentifier)
                return
            }
            let account = payment.pressedBy.map(database.appleId(for:))
            let eligible = account.flatMap { account in
                attempt { try database.eligibleWinBackOfferIds(account: account, productId: product.id, terms: terms, at: scheduler.now) }
            } ?? []
            guard eligible.contains(id) else {
                record(payment, state: .failed, error: .ineligibleForOffer)
                return
            }
            offerId = id
        }
        var introEligible: Bool?
        if let compactJWS = payment.introductoryOfferEligibility {
            // StoreKit 2: the app's server decided the intro offer; Apple checks its signature as an offer's.
            let verdict = PromotionalOfferCheck.eligibility(compactJWS, productId: payment.productId, key: offersKeyPair, bundleId: Receipt.bundleId,
                                                            now: scheduler.now)
            guard let allow = accepted(verdict.map { ($0.allow, $0.nonce) }, for: payment) else { return }
            introEligible = allow
        }
        let due = scheduler.now.addingTimeInterval(latency.payment)
        var owned: String?, subscription: SubscriptionPlan?
        if let account = payment.pressedBy.map(database.appleId(for:)) {
            if product.kind.isOwnedOnce { owned = attempt({ try database.originalPurchase(account: account, productId: product.id) }) ?? nil }
            if let terms = product.subscription {
                subscription = attempt { try database.subscriptionPlan(account: account, productId: product.id, terms: terms,
                                                                       levels: subscriptionTerms.mapValues(\.level)) }
            }
        }
        // Apple decides now what will become of the payment; the decision is written with it (S10). A fault is asked only
        // when the payment would be charged, in this order, so that a one-shot fault is spent on the payment it decides.
        let (plan, original) = StorePlan.forPayment(due: due, owned: owned, subscription: subscription, fate: {
            if faults.fire(.userCancels) != nil { return .userCancels }
            if let decision = faults.fire(.askToBuy) { return .askToBuy(declined: decision == "decline") }
            if faults.fire(.failedThenPurchased) != nil { return .failedThenPurchased }
            if faults.fire(.purchaseFails) != nil { return .fails }
            return .charged
        }, refundAfter: { faults.fire(.refund).flatMap(Double.init) })
        record(payment, state: .purchasing, originalTransactionId: original, plan: plan.steps, offerId: offerId, introEligible: introEligible)
    }

    /// What the app's server signed for `payment`, if Apple takes it: the nonce is taken only by a signature that checks
    /// out (a forged one cannot spend the server's nonce), and a refusal fails the payment at once. Nil when refused.
    private func accepted<Value>(_ verdict: Result<(Value, nonce: String), StoreError>, for payment: Payment) -> Value? {
        var verdict = verdict
        if case let .success((_, nonce)) = verdict, !(attempt { try database.takeOfferNonce(nonce, at: scheduler.now) } ?? false) {
            verdict = .failure(.invalidSignature)
        }
        switch verdict {
        case let .failure(error):
            record(payment, state: .failed, error: error)
            return nil
        case let .success((value, _)):
            return value
        }
    }

    /// The key promotional offers are checked with: the catalog's (a .storekit file's `subscriptionOffersKeyPair`),
    /// else iapsim's own, which `iapsim keys` prints for a team's server. Read when first needed.
    public private(set) lazy var offersKeyPair: OffersKeyPair? = catalog.lazy.compactMap { $0.subscription?.offersKey }.first.flatMap(OffersKeyPair.init)
        ?? attempt { try OffersKeyPair.own(in: database) } ?? nil

    /// The sheet's Cancel: true when it stopped the payment; false when Apple had already taken it.
    public func cancelPayment(transactionId: String) -> Bool {
        signedReceipt = nil
        guard let transaction = attempt({ try database.settle(transactionId, state: .failed, error: .cancelled) }) ?? nil else { return false }
        notify(identified(transaction))
        return true
    }

    public func finish(transactionId: String) -> Bool {
        guard faults.fire(.finishNotFound) == nil else { return false }
        return attempt { try finishedByServer(transactionId: transactionId) } ?? false
    }

    /// A team's server finished it (the Server API's Finish Transaction): as the app's finish, without the app's
    /// fault. False when it was not in the queue (unknown, or finished already).
    public func finishedByServer(transactionId: String) throws -> Bool {
        signedReceipt = nil
        return try database.finish(transactionId)
    }

    public func signedTransaction(id: String) -> String? {
        guard let signer, let transaction = attempt({ try records.transaction(id) }) ?? nil
        else { return nil }
        var payload = JWSTransaction(transaction, signedAt: scheduler.now)
        var key = signer.signingKey
        switch faults.fire(.unverifiedTransaction).flatMap(SignedTransactionFlaw.init(rawValue:)) {
        case .signature?: key = P256.Signing.PrivateKey()
        case .bundle?: payload.bundleId = "com.example.another-app"
        case .environment?: payload.environment = "Production"
        case nil: break
        }
        return attempt {
            try SignedTransaction.compactJWS(payload, chain: signer.chain) {
                try key.signature(for: $0).rawRepresentation
            }
        }
    }

    public func appReceipt() -> String? {
        guard faults.fire(.receiptEmpty) == nil else { return nil }
        return heldReceipt()
    }

    public func heldReceipt() -> String? {
        if let signedReceipt { return signedReceipt }
        let nonConsumables = catalog.filter { !$0.kind.isConsumable }.map(\.id)
        guard let rows = attempt({ try database.receiptEntries(nonConsumables: nonConsumables) }), !rows.isEmpty else { return nil }
        let receipt = Receipt(bundle_id: Receipt.bundleId, environment: "Sandbox", in_app: rows.map { entry($0) },
                              receipt_creation_date_ms: Receipt.Entry.milliseconds(scheduler.now))
        lastSealed = attempt { try signer?.seal(receipt, opaque: database.random.bytes(16)) } ?? nil
        signedReceipt = lastSealed?.base64
        return signedReceipt
    }

    /// What the app's launch matches against the backend's ledger: the original transaction of each of the latest
    /// `limit` finished purchases and restores, newest first. A failure is the caller's to report (or not).
    public func latestFinishedPaid(limit: Int) throws -> [String] {
        try database.latestFinishedPaid(limit: limit)
    }

    /// The queue as Apple holds it: every device's unfinished transactions, oldest first, at most `limit` (scripts).
    public func unfinished(limit: Int = -1) -> (transactions: [StoreTransaction], total: Int) {
        (attempt { try database.unfinished(limit: limit) } ?? [], attempt { try database.unfinishedCount() } ?? 0)
    }

    /// This device's queue, as the app here meets it: the signed-in Apple ID's unfinished transactions, oldest first, at
    /// most `limit`, and how many there are (the inspector; the devices panel counts each device's).
    public func queued(limit: Int) -> (transactions: [StoreTransaction], total: Int) {
        attempt { try database.queued(limit: limit) } ?? ([], 0)
    }

    private func isBlocked(_ productId: String) -> Bool {
        attempt { try database.hasOpenTransaction(productId: productId) } ?? false
    }

    /// What Apple did while the app was not running has happened by now, one step at a time in the order it was due:
    /// a payment's next step, on any device of the store (Apple charges whichever app is open), and a subscription's
    /// renewal, billing attempt or expiry. Taken out of order, a payment dated before a renewal could upgrade a
    /// subscription that had already renewed for the same period. The rest goes on on the store's clock.
    private func catchUp() {
        // Read once: taking a step changes only that transaction's plan (a spawned second half has none).
        var due = Dictionary((attempt { try database.planned() } ?? []).map { ($0.id, $0.due) }, uniquingKeysWith: min)
        while true {
            let step = due.min { ($0.value, $0.key) < ($1.value, $1.key) }
            let renewal = attempt { try database.nextSubscriptionDue() } ?? nil
            // Each branch takes a step or ends the loop: a database that fails to take one must not spin forever.
            if let step, step.value <= scheduler.now, renewal.map({ step.value <= $0 }) ?? true {
                guard let taken = takeDueStep(step.key, notifying: false) else { break }
                due[step.key] = taken.next
            } else if let renewal, renewal <= scheduler.now {
                guard takeDueRenewal(notifying: false) else { break }
            } else {
                break
            }
        }
        for (id, date) in due { schedule(id, at: date) }
        scheduleRenewals()
    }

    private func schedule(_ id: String, at date: Date) {
        scheduler.after(max(date.timeIntervalSince(scheduler.now), 0)) { [weak self] in self?.takeDueSteps(id, due: date, notifying: true) }
    }

    /// Applies every step of the transaction's plan that is due, durably, then waits for the next. Each step says when
    /// the next is due; the plan is read again only when a step was not taken (another launch took it meanwhile).
    private func takeDueSteps(_ id: String, due: Date, notifying: Bool) {
        var next: Date? = due
        while let due = next, due <= scheduler.now {
            guard let taken = takeDueStep(id, notifying: notifying) else {
                next = attempt { try database.nextStep(of: id) } ?? nil
                break
            }
            next = taken.next
        }
        if let next { schedule(id, at: next) }
    }

    /// Applies the transaction's next step if it is due, and tells the observer when the transaction is in this
    /// device's queue; nil when none was due.
    private func takeDueStep(_ id: String, notifying: Bool) -> StoreDatabase.TakenStep? {
        guard let taken = attempt({ try database.takeDueStep(id, now: scheduler.now, ownedOnce: ownedOnce,
                                                             subscriptions: subscriptionTerms) }) ?? nil else { return nil }
        signedReceipt = nil
        if let news = taken.notification { tell(news) }
        guard let changed = taken.transaction else { return taken }
        if changed.id != id, let payment = paymentIds[id] { paymentIds[changed.id] = payment }
        if notifying, taken.isInThisQueue { notify(identified(changed)) }
        return taken
    }

    private func isInThisQueue(_ transactionId: String) -> Bool {
        attempt({ try database.isInThisQueue(transactionId) }) ?? false
    }

    /// Settings › App Store: another Apple ID signs in on this device (A1). It pays from now on; the queue shows only its
    /// unfinished transactions (the app reads the queue again), and the receipt is its own.
    public func signIn(appleId: String) {
        signedReceipt = nil
        attempt { try database.signIn(appleId: appleId) }
    }

    /// Renews, retries and expires every subscription due by now, on the store's clock, each step durably before the
    /// next; a renewal is a new transaction for the app's observer (re-delivered at launch when it happened meanwhile).
    private func takeDueRenewals(notifying: Bool) {
        var changed = false
        while takeDueRenewal(notifying: notifying) { changed = true }
        if changed, notifying { onSubscriptionsChanged() }
        scheduleRenewals()
    }

    /// One subscription's step due by now, if any.
    private func takeDueRenewal(notifying: Bool) -> Bool {
        guard let first = attempt({ try database.dueRenewal(now: scheduler.now) }) ?? nil,
              let (news, renewal) = attempt({
                  try database.takeDueRenewal(now: scheduler.now, terms: subscriptionTerms,
                                              billingFailures: first ? faults.fire(.billingFails).flatMap(Int.init) ?? 0 : 0)
              }) ?? nil else { return false }
        signedReceipt = nil
        if let news { tell(news) }
        // A renewal joins the queue of the device its chain was last charged on; another device's app hears nothing.
        if let renewal, notifying, isInThisQueue(renewal.id) { notify(renewal) }
        return true
    }

    /// The renewal timer at the next subscription step there is now: one a plan change or refund made moot (a free
    /// trial upgraded away, a chain refunded) is called off.
    private func scheduleRenewals() {
        guard let due = attempt({ try database.nextSubscriptionDue() }) else { return }
        renewalTimer.reset(due, on: scheduler) { [weak self] _ in self?.takeDueRenewals(notifying: true) }
    }

    /// `news` is in the outbox already, written with the change it tells of; the backend hears it from there.
    func tell(_ news: StoreNotification) {
        outboxWritten(news)
        if ![.refund, .refundDeclined, .oneTimeCharge].contains(news.kind) { scheduleRenewals() }
        tellRevocations()
    }

    /// The outbox has something new (`news`, when it is one notification): the built-in backend hears what concerns it,
    /// or all of it through Apple's delivery (`--server-api`), and the `--notify` sender wakes.
    func outboxWritten(_ news: StoreNotification? = nil) {
        if (news?.concernsBuiltInBackend ?? true) || database.outbox.backendHearsDelivery { deliverNews() }
        onOutboxWritten()
    }

    /// Hands the built-in backend every notification it has not heard yet, oldest first, and writes down that it heard
    /// them. A kill between the two tells it one again at the next launch: the backend applies each notificationUUID
    /// once. One that hears through Apple's delivery (`--server-api`) gets what is due of it, and directly only what was
    /// written while nothing went out; without the mode it hears directly whatever that delivery had not brought it yet.
    func deliverNews() {
        guard let onNotification else { return }
        let throughDelivery = database.outbox.backendHearsDelivery
        while let news = attempt({ try database.notHeardByBackend(limit: 64, unsentOnly: throughDelivery) }), !news.isEmpty {
            for notification in news { _ = onNotification(notification) }
            guard attempt({ try database.heardByBackend(news.map(\.uuid)) }) != nil else { return }
        }
        if throughDelivery { deliverDueToBackend() }
    }

    func identified(_ transaction: StoreTransaction) -> StoreTransaction {
        guard let payment = paymentIds[transaction.id] else { return transaction }
        var identified = transaction
        identified.paymentId = payment
        return identified
    }

    /// Tells the observer, unless a fault delays, drops or doubles the news of a payment.
    func notify(_ transaction: StoreTransaction) {
        guard transaction.state == .purchased || transaction.state == .restored else {
            // A StoreKit 2 purchase that failed is only its purchase(options:) call's result: one made by a process gone
            // since, or declined by a parent after the call returned .pending, has no call left to return to, and left no
            // transaction to tell of.
            if transaction.state == .failed, transaction.paymentId == nil || transaction.error == .declined,
               attempt({ try database.isFinished(transaction.id) }) == true { return }
            observer?([transaction])
            return
        }
        if faults.fire(.observerLost) != nil { return }  // still unfinished: the app finds it when it looks again
        let deliveries = faults.fire(.duplicateCallback) != nil ? 2 : 1
        let delay = faults.fire(.observerDelayed).flatMap(Double.init) ?? 0
        let appleId = database.appleId
        for _ in 0..<deliveries {
            if delay > 0 {
                // Late news of an Apple ID signed out meanwhile is not told: its transactions come back only while it is
                // signed in (A1), and this one waits unfinished in the store until it is again.
                scheduler.after(delay) { [weak self] in
                    guard let self, self.database.appleId == appleId else { return }
                    self.observer?([transaction])
                }
            } else {
                observer?([transaction])
            }
        }
    }

    private func record(_ payment: Payment, state: TransactionState, error: StoreError? = nil, originalTransactionId: String? = nil,
                        plan steps: [StorePlan.Step] = [], offerId: String? = nil, introEligible: Bool? = nil) {
        // StoreKit 2's meaning of the same fault: the transaction comes back without its appAccountToken.
        let unnamed = faults.fire(.emptyApplicationUsername) != nil
        let name = unnamed ? nil : payment.applicationUsername
        signedReceipt = nil
        guard let transaction = attempt({
            try database.insert(productId: payment.productId, state: state, applicationUsername: name,
                                account: payment.pressedBy.map(database.appleId(for:)), pressedBy: payment.pressedBy, date: scheduler.now, error: error, originalTransactionId: originalTransactionId,
                                plan: steps.isEmpty ? nil : StorePlan(steps: steps), appAccountToken: unnamed ? nil : payment.appAccountToken,
                                offerId: offerId, introEligible: introEligible, billingPlan: payment.billingPlan, storeKit: payment.storeKit)
        }) else { return }
        if let id = payment.id { paymentIds[transaction.id] = id }
        notify(identified(transaction))
        if let first = steps.first { schedule(transaction.id, at: first.date) }
    }

    func attempt<T>(_ work: () throws -> T) -> T? {
        do {
            return try work()
        } catch {
            onError("\(error)")
            return nil
        }
    }
}
