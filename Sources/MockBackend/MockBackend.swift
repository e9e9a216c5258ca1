import AppleVocabulary
import Foundation
import IAPCore

/// The app's own server with Apple's `verifyReceipt` behind it, answering after a network delay.
public final class MockBackend: Backend {
    public struct Latency: Sendable {
        public var order: Double
        public var verify: Double

        public init(order: Double = 0.2, verify: Double = 1.0) {
            self.order = order
            self.verify = verify
        }
    }

    public let faults: FaultBoard
    /// Which `verifyReceipt` the server calls first. Production answers 21007 for a sandbox receipt,
    /// and the server retries against sandbox, as Apple asks.
    public var verifyEnvironment = AppleEnvironment.production
    /// A modern server (`--server-api`): it reads no receipt, in StoreKit 1 either. It asks the App Store Server API about
    /// the transaction the app names, hears notifications as Apple delivers them (the notification faults befall them),
    /// credits a purchase whose transaction names its payer by appAccountToken as soon as it is told of it, and reads
    /// Notification History when it starts, for what never reached it.
    public var learnsFromServerAPI = false
    /// How long a request waits before the client gives up on it (the `backend-timeout` fault).
    public static let timeout = 10.0
    /// "Still verifying" answers given so far, per transaction (the `verification-pending` fault).
    private var pendingAnswers: [String: Int] = [:]
    /// The timer for the backend's own queue of requests to Apple.
    private let appleRetryTimer = SoonestTimer()

    /// The backend's records, also where support acts (compensate, refund).
    public let database: BackendDatabase
    /// Who holds a purchase an app user restores or buys again when another app user of the same Apple ID holds it (A2):
    /// the server's setting, kept in its database (transfer until set).
    public var restorePolicy: RestorePolicy {
        get { policy }
        set {
            do {
                try database.setRestorePolicy(newValue)
                policy = newValue
            } catch {
                onError("\(error)")
            }
        }
    }
    private var policy: RestorePolicy
    private let catalog: [String: Product]
    private let apple: any ReceiptVerifying
    private let serverAPI: any AppStoreServerAPI
    private let scheduler: Scheduler
    private let latency: Latency

    private let catalogOrder: [Product]
    /// What the catalog says of an account's products, read once rather than at every account's reading: the products
    /// a credit does not keep, those that grant units, and each subscription's group.
    private let notKept: Set<String>, units: Set<String>, groups: [String: String]

    public init(database: BackendDatabase, catalog: [Product], apple: any ReceiptVerifying, serverAPI: any AppStoreServerAPI, scheduler: Scheduler, latency: Latency = Latency(),
                faults: FaultBoard = FaultBoard()) {
        self.database = database
        self.faults = faults
        catalogOrder = catalog
        self.catalog = Dictionary(catalog.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        notKept = Product.notKept(in: catalog)
        units = Set(catalog.filter(\.grantsUnit).map(\.id))
        groups = self.catalog.compactMapValues { $0.subscription?.group }
        self.apple = apple
        self.serverAPI = serverAPI
        self.scheduler = scheduler
        self.latency = latency
        policy = (try? database.restorePolicy()) ?? .transfer
        scheduleAppleRetry()
    }

    public func createOrder(user: String, productId: String, storeKit: StoreKitMode, _ completion: @escaping (Result<OrderResponse, BackendError>) -> Void) {
        answer(after: latency.order, completion) {
            // product-mismatch: the order goes down with the neighbouring product in the catalog.
            let named = faults.fire(.productMismatch) != nil ? neighbour(of: productId) : productId
            let orderId = try database.createOrder(user: user, productId: named, at: scheduler.now)
            return OrderResponse(orderId: orderId, introductoryOfferEligibility: storeKit == .two ? try introOfferWithheld(user: user, productId: productId) : nil)
        }
    }

    /// StoreKit 2 lets the server have its say on the intro offer. This one gives it once per app user in a group,
    /// whichever Apple ID pays (Apple's own rule is once per Apple ID): to a user who subscribed in the group before, it
    /// signs none, naming the earlier transaction. Nil: Apple's rule decides.
    private func introOfferWithheld(user: String, productId: String) throws -> String? {
        guard let terms = catalog[productId]?.subscription, terms.introOffer != nil, let key = offersKey(), let signer = OfferSigner(key) else { return nil }
        let group = catalogOrder.filter { $0.subscription?.group == terms.group }.map(\.id)
        guard let earlier = try database.latestCredit(user: user, productIds: group) else { return nil }
        return try signer.introductoryOfferEligibility(productId: productId, allow: false, transactionId: earlier, nonce: random.uuid(),
                                                       at: scheduler.now)
    }

    public func appAccountToken(user: String, _ completion: @escaping (Result<UUID, BackendError>) -> Void) {
        answer(after: latency.order, completion) { try database.appAccountToken(user: user) }
    }

    /// The subscription offers key the server signs promotional offers with (the store's, as a team downloads it from
    /// App Store Connect), read when first asked for; nil: it signs none.
    public var offersKey: () -> SubscriptionOffersKey? = { nil }
    /// The root the server trusts as Apple's for StoreKit 2's signed transactions (the store's, in iapsim).
    public var trustedRoot: () -> [UInt8]? = { nil }
    /// What the server draws at random: the nonces of the offers it signs.
    public var random = RandomSource.system

    public func signOffer(user: String, productId: String, offerId: String, applicationUsername: String?, storeKit: StoreKitMode,
                          _ completion: @escaping (Result<OfferSignature, BackendError>) -> Void) {
        answer(after: latency.order, completion) {
            guard let key = offersKey(), let signer = OfferSigner(key) else { throw OfferSigner.NoKey() }
            return try signer.sign(productId: productId, offerId: offerId, applicationUsername: applicationUsername,
                                   nonce: random.uuid(), storeKit: storeKit, at: scheduler.now)
        }
    }

    public func verify(_ request: VerifyRequest, _ completion: @escaping (Result<VerifyResponse, BackendError>) -> Void) {
        answer(after: latency.verify, completion) { try verifyNow(request) }
    }

    public func account(user: String, _ completion: @escaping (Result<Account, BackendError>) -> Void) {
        answer(after: 0, completion) { try accountNow(user: user) }
    }

    /// The user's account as the backend holds it now, past any fault: what support and a script's checks read.
    public func accountNow(user: String) throws -> Account {
        try database.account(user: user, notKept: notKept, units: units, groups: groups, at: scheduler.now)
    }

    /// How many credits the ledger holds for the user, refunded ones included.
    public func creditCount(user: String) throws -> Int {
        try database.recentCredits(user: user, limit: 0).total
    }

    /// The server's work happens when the request arrives; the answer travels back later,
    /// so a kill in between leaves a credit the client has not heard of (the replay must credit nothing more).
    private func answer<T>(after delay: Double, _ completion: @escaping (Result<T, BackendError>) -> Void, work: () throws -> T) {
        var delay = delay + (faults.fire(.backendSlow).flatMap(Double.init) ?? 0)
        var result: Result<T, BackendError>
        if faults.fire(.backendDown) != nil {
            result = .failure(.unreachable)
        } else if let code = faults.fire(.backend5xx) {
            result = .failure(.http(Int(code) ?? 500))
        } else {
            do { result = .success(try work()) } catch { result = .failure(.http(500)) }
            if faults.fire(.backendTimeout) != nil {
                // The work is done; only the answer is lost on the way back.
                result = .failure(.timeout)
                delay = Self.timeout
            }
        }
        scheduler.after(delay) { completion(result) }
    }

    private func neighbour(of productId: String) -> String {
        guard let index = catalogOrder.firstIndex(where: { $0.id == productId }), catalogOrder.count > 1 else { return productId }
        return catalogOrder[(index + 1) % catalogOrder.count].id
    }

    /// Uploaded alarms, kept for support (seed 002).
    public func report(_ alarms: [AlarmReport], _ completion: @escaping (Result<Void, BackendError>) -> Void) {
        answer(after: 0, completion) { try database.keep(alarms, at: scheduler.now) }
    }

    /// A receipt seen before for a decided transaction is a replay, listed for support (seed 002); the ledger answers it
    /// as it would any verification, crediting nothing twice.
    private func verifyNow(_ request: VerifyRequest) throws -> VerifyResponse {
        let decision = request.receiptHash.map { ReceiptDecision(receiptHash: $0, transactionId: request.transactionId, user: request.user) }
        if let decision, let first = try database.decider(of: decision) {
            try database.noteReplay(ReceiptReplay(receiptHash: decision.receiptHash, transactionId: request.transactionId, user: request.user,
                                                  firstUser: first, at: scheduler.now))
        }
        return try decide(request, noting: decision)
    }

    /// The backend's own handling of one request: Apple's answer first, then orders, support marks and the ledger.
    /// `decision`: noted in the write that credits, rejects or compensates, if one does.
    private func decide(_ request: VerifyRequest, noting decision: ReceiptDecision?) throws -> VerifyResponse {
        // StoreKit 2: nothing is decided on a signed transaction that is not Apple's, this app's and this environment's.
        // One that is names who paid by its appAccountToken, whoever's app sent it and whatever order it names.
        var payer: String?, signedChecked = false
        if let signed = request.signedTransaction, let root = trustedRoot() {
            switch SignedTransactionCheck(trustedRoot: root, bundleId: Receipt.bundleId, environment: AppleSandbox.environment)
                .check(signed, transactionId: request.transactionId) {
            case let .failure(flaw): return .unverified(flaw)
            case let .success(transaction):
                payer = try transaction.appAccountToken.flatMap(UUID.init(uuidString:)).flatMap { try database.user(ofAppAccountToken: $0) }
                signedChecked = true
            }
        }
        let byServerAPI = signedChecked || learnsFromServerAPI
        if let polls = faults.fire(.verificationPending).flatMap(Int.init), pendingAnswers[request.transactionId, default: 0] < polls {
            pendingAnswers[request.transactionId, default: 0] += 1
            return .pending
        }
        // order-missing: the server cannot find the order the client names, and proceeds as if none was named (B4).
        let orderId = faults.fire(.orderMissing) != nil ? nil : request.orderId
        // A restored entitlement (StoreKit 2) names no order: support's settlement is found by the transaction.
        if try orderId.map(database.isCompensated(orderId:)) ?? (request.restore == true && database.isCompensated(transactionId: request.transactionId)) {
            try database.recordVerdict(transactionId: request.transactionId, verdict: .compensated, at: scheduler.now, noting: decision)
            return .compensated
        }
        if let status = try database.appleStatusWhileQueued(request.transactionId) {
            // The client polls while the server is still asking Apple.
            return .pending(appleStatus: status)
        }
        let answer = try verifyWithApple(request, orderId: orderId, payer: payer, byServerAPI: byServerAPI, noting: decision)
        guard answer.result == .appleUnavailable, let status = answer.appleStatus else { return answer }
        // Apple asked to try again: the server keeps the request, durably before the client hears "pending", and asks
        // Apple again itself (seeds 000, 003); the client polls until it is decided.
        try database.keepForApple(AppleRetry(transactionId: request.transactionId, user: request.user, productId: request.productId,
                                             orderId: orderId, receipt: request.receipt, payer: payer, byServerAPI: byServerAPI,
                                             claimsOwnership: request.claimsOwnership == true, attempts: 1, lastStatus: status,
                                             nextAt: scheduler.now.addingTimeInterval(Self.appleBackoff(after: 1)), queuedAt: scheduler.now))
        scheduleAppleRetry()
        return .pending(appleStatus: status)
    }

    /// How long the server waits before asking Apple again after `attempts` answers that asked to try again: doubling
    /// from 5 s, at most 10 minutes.
    static func appleBackoff(after attempts: Int) -> Double {
        min(5 * pow(2, Double(min(max(attempts - 1, 0), 16))), 600)
    }

    /// Asks Apple again for every kept request that is due: one Apple decided leaves the queue (its credit or verdict
    /// written as for a client's request), one Apple still cannot decide waits longer.
    private func retryApple(dueBy due: Date) {
        do {
            // A millisecond past the timer's own date: a date read back from the database can be a rounding later than
            // the clock, and finding nothing due would set the timer again for the same moment, for ever.
            for var kept in try database.dueForApple(at: max(scheduler.now, due).addingTimeInterval(0.001)) {
                // Support settled it by hand meanwhile (B5): crediting it too would pay twice.
                if let orderId = kept.orderId, try database.isCompensated(orderId: orderId) {
                    try database.dropFromAppleQueue(kept.transactionId)
                    continue
                }
                let answer = try verifyWithApple(kept.request, orderId: kept.orderId, payer: kept.payer, byServerAPI: kept.byServerAPI, noting: nil)
                if answer.result == .appleUnavailable {
                    kept.attempts += 1
                    kept.lastStatus = answer.appleStatus ?? kept.lastStatus
                    kept.nextAt = scheduler.now.addingTimeInterval(Self.appleBackoff(after: kept.attempts))
                    try database.keepForApple(kept)
                } else {
                    try database.dropFromAppleQueue(kept.transactionId)
                }
            }
        } catch {
            onError("\(error)")
        }
        scheduleAppleRetry()
    }

    /// One timer for the soonest kept request; at launch it takes up what a kill left in the queue.
    private func scheduleAppleRetry() {
        guard let due = try? database.nextAppleRetry() else { return }
        appleRetryTimer.set(due, on: scheduler) { [weak self] due in self?.retryApple(dueBy: due) }
    }

    /// Apple's answer on the request, and what the server makes of it: the ledger, the subscriber, the verdicts.
    /// `payer`: the app user a StoreKit 2 transaction's appAccountToken names. `byServerAPI`: the request's signed
    /// transaction passed the server's check, and Apple is asked through the App Store Server API.
    private func verifyWithApple(_ request: VerifyRequest, orderId: String?, payer: String?, byServerAPI: Bool,
                                 noting decision: ReceiptDecision?) throws -> VerifyResponse {
        let found: AppleEvidence
        switch byServerAPI ? try serverAPIEvidence(request) : try receiptEvidence(request) {
        case let .refused(status):
            let verdict = VerifyResponse.apple(status)
            if verdict.result == .rejected {
                try database.recordVerdict(transactionId: request.transactionId, verdict: .rejected, appleStatus: status, at: scheduler.now,
                                           noting: decision)
            }
            return verdict
        case .unknown:
            // Not in this receipt: the client should fetch a fresh one and try again.
            return .notInReceipt
        case let .found(evidence):
            found = evidence
        }
        return try credit(found, request, orderId: orderId, payer: payer, noting: decision)
    }

    /// The ledger's part once Apple has said what the transaction is: credited once, to the payer, under the restore
    /// policy when it repeats a purchase.
    private func credit(_ found: AppleEvidence, _ request: VerifyRequest, orderId: String?, payer: String?,
                        noting decision: ReceiptDecision?) throws -> VerifyResponse {
        let entry = found.entry
        // StoreKit 2's Restore sends the transaction itself (an entitlement), where StoreKit 1's has its own id: either
        // way the purchase is credited already, and the restore policy decides who holds it.
        let restoring = request.signedTransaction != nil && request.restore == true
        let product = catalog[entry.product_id]
        let credit: Credit, new: Bool
        /// The purchase the transaction repeats, when it is a free re-buy or a restore: its original (a chain for a
        /// subscription) and the app user its credit is of.
        var repeated: (original: String, owner: String)?
        if product?.subscription != nil {
            // A subscription is credited once per charge (its web order line item, the same for every restore of it),
            // to the subscriber: whoever the chain's first charge was credited to, whoever verifies a renewal.
            guard let credited = try database.creditSubscription(entry, chain: found.chain, renewal: found.renewal, orderId: orderId, payer: payer,
                                                                 requester: request.user, claimed: request.claimsOwnership == true,
                                                                 at: scheduler.now, noting: decision)
            else { return .pending }
            (credit, new) = credited
            if !new, credit.transactionId != entry.transaction_id || restoring { repeated = (entry.original_transaction_id, credit.user) }
            // What the entitlement now says comes from Apple's records as they are, not from notifications in the order
            // they came: a SUBSCRIBED held back past the chain's REFUND must not leave it granted.
            if learnsFromServerAPI { try readChain(entry.original_transaction_id) }
        } else {
            // B4: credit what was paid (the receipt's product), whatever product the order named. A restore (S7) names the
            // purchase it restores: the ledger keys on that original, so what is owned is credited once, however often restored,
            // and to whom the original was credited. A restore verified before its original waits for it: whoever carries the
            // restore did not necessarily pay, and the original, paid and held by its buyer, names them when it is verified.
            // The fault shows the mistake of a server that keys on the transaction id: a free re-buy (a new id, the same
            // original) is credited again. A family member's purchase (A4) went through no app: its first restore is its original.
            let key = faults.fire(.ledgerByTransactionId) != nil ? entry.transaction_id : entry.original_transaction_id
            guard let credited = try database.credit(transactionId: key, paidProduct: entry.product_id, orderId: orderId, payer: payer,
                                                     requester: request.user, coins: product?.coins ?? 0, at: scheduler.now,
                                                     original: key == entry.transaction_id || entry.transaction_id == entry.original_transaction_id
                                                        || entry.in_app_ownership_type == "FAMILY_SHARED",
                                                     familyShared: entry.in_app_ownership_type == "FAMILY_SHARED", noting: decision)
            else { return .pending }
            (credit, new) = credited
            if !new, credit.transactionId != entry.transaction_id || restoring { repeated = (credit.transactionId, credit.user) }
        }
        var creditedTo = credit.user
        if let repeated {
            // Only whoever pressed Buy or Restore for this very transaction claims it under the policy: a restore
            // re-delivered to whoever is logged in is only carried, and stays with its holder.
            creditedTo = try database.holder(of: repeated.original, productId: credit.productId, owner: repeated.owner,
                                             subscription: product?.subscription != nil, askedBy: request.user,
                                             claiming: request.claimsOwnership == true ? restorePolicy : nil, at: scheduler.now)
        }
        // A purchase Apple already refunded is credited and revoked at once: the ledger shows what happened to it.
        if let cancelled = entry.cancellation_date_ms.flatMap(Double.init), entry.isRefunded {
            _ = try database.refund(transactionId: credit.transactionId, at: Date(timeIntervalSince1970: cancelled / 1000))
        }
        return .credited(user: creditedTo, new: new)
    }

    /// What Apple says of a request's transaction, read from the receipt or from the Server API.
    private enum AppleAnswer {
        /// Apple's status, by `verifyReceipt`'s number, when it is not 0.
        case refused(status: Int)
        /// Apple has no such transaction (in this receipt).
        case unknown
        case found(AppleEvidence)
    }

    /// The transaction as Apple has it and, for a subscription, its chain's charges and what its renewal will do.
    private struct AppleEvidence {
        let entry: Receipt.Entry
        var chain: [Receipt.Entry] = []
        var renewal: PendingRenewalInfo?
    }

    /// StoreKit 1: Apple's `verifyReceipt` on the app receipt, at production first and, when Apple says the receipt is
    /// the other environment's, there.
    private func receiptEvidence(_ request: VerifyRequest) throws -> AppleAnswer {
        // The shared secret always goes along: without it Apple leaves out a subscription's latest transactions and renewal.
        let appleRequest = VerifyReceiptRequest(receiptData: request.receipt, password: try apple.sharedSecret())
        var answer = appleVerify(appleRequest, at: verifyEnvironment)
        if answer.status == ReceiptStatus.sandboxReceiptInProduction {
            answer = appleVerify(appleRequest, at: .sandbox)
        } else if answer.status == ReceiptStatus.productionReceiptInSandbox {
            answer = appleVerify(appleRequest, at: .production)
        }
        guard answer.status == ReceiptStatus.ok, let receipt = answer.receipt else { return .refused(status: answer.status) }
        guard let entry = receipt.in_app.first(where: { $0.transaction_id == request.transactionId }) else { return .unknown }
        let original = entry.original_transaction_id
        return .found(AppleEvidence(entry: entry, chain: answer.latest_receipt_info?.filter { $0.original_transaction_id == original } ?? [],
                                    renewal: answer.pending_renewal_info?.first { $0.original_transaction_id == original }))
    }

    /// StoreKit 2: the signed transaction passed the server's own check; the App Store Server API says the rest, as a
    /// server written against StoreKit 2 asks it: the transaction as Apple has it now (Get Transaction Info), and for a
    /// subscription its chain's charges (Get Transaction History) and renewal (Get All Subscription Statuses). No receipt
    /// is read. The `verify-status` fault makes the Server API fail as that status says: try again later, or ask the
    /// other environment (which answers as the fault says again), or refuse.
    private func serverAPIEvidence(_ request: VerifyRequest) throws -> AppleAnswer {
        var forced = forcedAppleStatus()
        if forced == ReceiptStatus.sandboxReceiptInProduction || forced == ReceiptStatus.productionReceiptInSandbox { forced = forcedAppleStatus() }
        if let forced { return .refused(status: forced) }
        guard let transaction = try serverAPI.transaction(request.transactionId) else { return .unknown }
        return .found(try evidence(of: transaction))
    }

    /// A transaction as the Server API has it, with its chain's charges and renewal when it is a subscription's.
    private func evidence(of transaction: AppleTransaction) throws -> AppleEvidence {
        let entry = transaction.entry
        guard entry.subscription_group_identifier != nil else { return AppleEvidence(entry: entry) }
        let original = entry.original_transaction_id
        return AppleEvidence(entry: entry, chain: try serverAPI.history(of: entry.transaction_id, finishedConsumables: true)?.map(\.entry).filter { $0.original_transaction_id == original } ?? [],
                             renewal: try serverAPI.subscription(original: original)?.renewal)
    }

    /// The status the `verify-status` fault forces on Apple's answer, unless it is 0 (Apple's own answer: a forced "ok"
    /// without a receipt would be no answer at all).
    private func forcedAppleStatus() -> Int? {
        faults.fire(.verifyStatus).flatMap(Int.init).flatMap { $0 == ReceiptStatus.ok ? nil : $0 }
    }

    /// Apple's `verifyReceipt` at one endpoint, unless a fault forces its status.
    private func appleVerify(_ request: VerifyReceiptRequest, at environment: AppleEnvironment) -> VerifyReceiptResponse {
        forcedAppleStatus().map { VerifyReceiptResponse(status: $0, environment: environment.rawValue) } ?? apple.verify(request, at: environment)
    }

    /// What Apple tells this server when something happens without the app (App Store Server Notifications): a
    /// refund revokes the credit and the entitlement; renewals, billing retries and expiries move the entitlement's end.
    /// Answers why it was not taken (nil: taken), as the HTTP answer Apple reads to decide whether to retry.
    @discardableResult
    public func receive(_ notification: StoreNotification) -> String? {
        if learnsFromServerAPI, faults.isArmed(.backendDown) { return "connection refused" }
        do {
            // Credited before the notification is marked applied: a kill in between credits nothing twice when it is
            // told again, the ledger keeping each payment once.
            if learnsFromServerAPI, try !database.hasApplied(notification.uuid) { try creditPurchase(toldBy: notification) }
            try database.apply(notification)
            if learnsFromServerAPI, !notification.originalTransactionId.isEmpty {
                try readChain(notification.originalTransactionId)
                try readRefund(notification)
            }
            return nil
        } catch {
            onError("\(error)")
            return "HTTP 500"
        }
    }

    /// A modern server learns of a payment from Apple before the app verifies it (an app killed after paying, a
    /// renewal): the transaction Apple's notification carries names its payer by the appAccountToken the app gave, and
    /// it is credited to them, once, as the app's own verification of it would be. One without a token waits for the
    /// app, whose order says who paid. A family member's copy is credited when the member restores it.
    private func creditPurchase(toldBy notification: StoreNotification) throws {
        // An upgrade's charge (at an offer or not) waits for the app, as DID_CHANGE_RENEWAL_PREF's does.
        guard [.oneTimeCharge, .subscribed, .offerRedeemed].contains(notification.kind), notification.subtype != .upgrade,
              let id = notification.transactionId,
              let transaction = try serverAPI.transaction(id), transaction.entry.in_app_ownership_type != "FAMILY_SHARED",
              let token = transaction.appAccountToken, let payer = try database.user(ofAppAccountToken: token),
              try !database.isCompensated(transactionId: id) else { return }
        // The order is the payer's latest open one for the product, placed before the charge: the one the app made when
        // Buy was pressed, which a token per app user cannot name. Support may have settled it by hand meanwhile (B5).
        let charged = Double(transaction.entry.purchase_date_ms).map { Date(timeIntervalSince1970: $0 / 1000) } ?? scheduler.now
        let order = try database.openOrder(user: payer, productId: transaction.entry.product_id, placedBy: charged)
        if let order, order.compensated {
            try database.recordVerdict(transactionId: id, verdict: .compensated, at: scheduler.now)
            return
        }
        let told = VerifyRequest(receipt: "", transactionId: id, productId: transaction.entry.product_id, orderId: order?.id, user: payer)
        _ = try credit(evidence(of: transaction), told, orderId: order?.id, payer: payer, noting: nil)
    }

    /// Notifications come in any order (held back, delayed, retried hours later), so a modern server takes each as a
    /// cue and reads the chain as Apple has it now (Get All Subscription Statuses): one told late never undoes what a
    /// later one said, such as a refund.
    private func readChain(_ original: String) throws {
        guard let chain = try serverAPI.subscription(original: original) else { return }
        let grace = chain.state == .gracePeriod ? chain.renewal.grace_period_expires_date_ms.flatMap(Double.init).map { Date(timeIntervalSince1970: $0 / 1000) } : nil
        let revoked = chain.state == .revoked ? chain.latest.entry.cancellationDate ?? scheduler.now : nil
        try database.match(entitlement: original, productId: chain.latest.entry.product_id, expiresAt: chain.expires, graceUntil: grace, revokedAt: revoked)
    }

    /// A refund and its reversal arrive in either order too: the transaction as Apple has it now says whether the
    /// refund stands.
    private func readRefund(_ notification: StoreNotification) throws {
        let id = notification.transactionId ?? notification.originalTransactionId
        guard [.refund, .refundReversed].contains(notification.kind), let transaction = try serverAPI.transaction(id) else { return }
        try database.match(refundOf: id, webOrder: transaction.entry.web_order_line_item_id,
                           cancelledAt: transaction.entry.isRefunded ? transaction.entry.cancellationDate ?? notification.date : nil)
    }

    /// What never reached this server though Apple counts it sent (`notification-lost`), found in Notification History
    /// as a server reads it when it starts: since the last reading, each one not applied yet is applied now.
    public func readNotificationHistory() {
        guard learnsFromServerAPI, !faults.isArmed(.backendDown) else { return }
        do {
            let now = scheduler.now
            for notification in try serverAPI.notificationHistory(from: database.notificationHistoryRead() ?? .distantPast,
                                                                  to: now.addingTimeInterval(1)) {
                _ = receive(notification)
            }
            try database.noteNotificationHistoryRead(to: now)
        } catch {
            onError("\(error)")
        }
    }

    /// Where a failure of the backend's own database outside a request is reported.
    public var onError: (String) -> Void = { _ in }
}
