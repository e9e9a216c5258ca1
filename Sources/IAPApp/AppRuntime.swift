import AppleVocabulary
import Crypto
import Foundation
import IAPCore

/// Runs the reducer and the effects it asks for; every answer comes back as an action (one-way data flow).
public final class AppRuntime {
    public private(set) var state: AppState
    public let timers: TimerQueue
    private let parties: Parties
    private var inbox: [Action] = []
    private var draining = false
    /// Effects still allowed before the process "dies" (the crash-now fault); nil: no limit.
    private var effectBudget: Int?
    public private(set) var halted = false
    /// How many effects the reducer has asked for so far: a script tells by it a key that did nothing.
    public private(set) var effectsAsked = 0
    /// Why the app died on purpose (crash-at, crash now); the host shows it and relaunches.
    public private(set) var crashReason: Localized?
    /// Does what only the program around the app can (quit, reinstall, start a scenario, list them).
    public weak var host: Host? {
        didSet {
            guard let untold = untoldCrash, let host else { return }
            untoldCrash = nil
            host.request(.crashed(untold))
        }
    }
    /// A crash on purpose reached before any host was attached (a crash-at step while the app was starting): the first
    /// host hears of it, or nobody would end the app.
    private var untoldCrash: Localized?
    /// The last receipt hashed and its hash: a purchase's order keeps it, then its verification sends it.
    private var hashed: (receipt: String, hash: String)?
    /// Every device of the data directory, read when the devices panel opens (the session knows where they are).
    public var devices: () -> [DeviceSummary] = { [] }
    /// Sees every action as it is reduced (the event timeline tells what changed): given the state it is reduced from,
    /// it takes what it needs of it and answers what to do with the effects the action produced and the state it led
    /// to. Both states are lent, not copied: a copy of the whole state kept alive while the reducer changes it would
    /// have each collection it changes copy itself.
    public var onAction: ((_ action: Action, _ before: borrowing AppState) -> (_ effects: [Effect], _ after: borrowing AppState) -> Void)?

    public init(state: AppState, parties: Parties, timers: TimerQueue) {
        self.state = state
        self.parties = parties
        self.timers = timers
        parties.onStoreError { [weak self] in self?.send(.alarm(.storage(party: .store, detail: $0))) }
        parties.faults.onFired = { [weak self] in self?.send(.faultFired($0)) }
        parties.backend.onError = { [weak self] in self?.send(.alarm(.storage(party: .backend, detail: $0))) }
        // A renewal, an expiry or a refund on the store's clock changes what the product list says of a subscription.
        parties.store.onSubscriptionsChanged = { [weak self] in
            guard let self, !self.halted, let user = self.state.user else { return }
            self.run(.refreshAccount(user))
        }
        // The board is the one owner of what is armed; the state's copy is refreshed on every change, however it
        // came (the panel, a one-shot spent by a party, a test setting the board), even while the app is halted,
        // so the badges and the panel always show what the parties obey.
        self.state.faults = parties.faults.armed
        self.state.device.appleId = parties.store.database.appleId
        parties.faults.onChange = { [weak self] in self?.state.faults = $0 }
    }

    /// The app dies the next time the store has news for it: Apple's side has happened, durably; the app never hears.
    public func haltAtNextStoreNews() {
        haltOnStoreNews = true
    }
    private var haltOnStoreNews = false

    /// C1: the observer is attached and the store's queue read before anything else happens, so re-delivered
    /// transactions are never missed.
    public func start(user: String?) {
        parties.store.add(observer: { [weak self] transactions in
            guard let self else { return }
            if self.haltOnStoreNews { self.halted = true }
            self.send(.storeUpdated(transactions, held: self.held(transactions)))
        })
        parties.store.onEntitlementsRevoked = { [weak self] in self?.send(.entitlementsRevoked($0)) }
        readStoreQueue()
        let remembered = user ?? (try? parties.vault.lastUser()) ?? nil
        send(.launched(canMakePayments: parties.store.canMakePayments, user: remembered))
    }

    /// Lets the screen show the current time (retry countdowns) without an action.
    public func refreshClock() {
        state.now = timers.now
    }

    /// Stops everything after `effects` more effects, as a `kill -9` would between two steps.
    public func halt(afterEffects effects: Int) {
        effectBudget = effects
        if effects <= 0 { halted = true }
    }

    public func send(_ action: Action) {
        guard !halted else { return }
        inbox.append(action)
        guard !draining else { return }
        draining = true
        defer { draining = false }
        while !inbox.isEmpty {
            let next = inbox.removeFirst()
            let observe = onAction?(next, state)
            let effects = state.reduce(next, now: timers.now)
            effectsAsked += effects.count
            observe?(effects, state)
            for effect in effects {
                if let budget = effectBudget {
                    guard budget > 0 else {
                        halted = true
                        inbox = []
                        return
                    }
                    effectBudget = budget - 1
                }
                if let point = effect.crashPoint, parties.faults.armed.value(.crashAt) == point {
                    parties.faults.fire(.crashAt)
                    crash(Localized(en: "crash-at=\(point): the app died just before its \(point) step", zh: "crash-at=\(point):应用死在 \(point) 这一步之前"))
                    return
                }
                run(effect)
                if halted { return }
            }
        }
    }

    private func run(_ effect: Effect) {
        let store = parties.store, backend = parties.clientBackend, vault = parties.vault
        switch effect {
        case .requestProducts:
            store.requestProducts { [weak self] in self?.send(.productsLoaded($0)) }
        case let .loadUser(user):
            send(.userLoaded(user, record { try vault.snapshot(user: user, pageSize: Session.pageSize) }))
        case let .setLastUser(user):
            record { try vault.setLastUser(user) }
        case let .readSubscriptions(user):
            send(.subscriptionsLoaded(user, store.subscriptions(account: user)))
        case let .refreshAccount(user):
            // StoreKit answers the subscriptions' status on the device; the backend answers what it grants.
            run(.readSubscriptions(user))
            backend.account(user: user) { [weak self] result in
                if case let .success(account) = result { self?.send(.accountLoaded(user, account)) }
            }
        case let .refund(account):
            let refunded = store.refund(account: account)
            send(.refundAnswered(user: account, transactionId: refunded, productId: refunded.flatMap(store.records.productId(of:))))
        case let .setAutoRenew(on, original):
            store.setAutoRenew(on, originalTransactionId: original)
        case let .agreeToPriceIncrease(original):
            store.consentToPriceIncrease(originalTransactionId: original)
        case let .createOrder(user, productId, storeKit):
            backend.createOrder(user: user, productId: productId, storeKit: storeKit) { [weak self] answer in
                let eligibility = (try? answer.get().introductoryOfferEligibility)?.map { jws in
                    IntroOfferEligibility(compactJWS: jws, allows: SignedAppStoreRequest(compactJWS: jws)?.claims.allowIntroductoryOffer)
                }
                self?.send(.orderCreated(user: user, productId: productId, answer.map(\.orderId), introductoryOfferEligibility: eligibility))
            }
        case let .fetchAppAccountToken(user):
            backend.appAccountToken(user: user) { [weak self] in self?.send(.appAccountTokenFetched(user: user, $0)) }
        case let .recordIntent(user, productId, orderId, token, date):
            let intent = record {
                try vault.recordIntent(user: user, productId: productId, orderId: orderId, appleId: store.database.appleId, appAccountToken: token, at: date)
            }
            send(.intentRecorded(user: user, productId: productId, intent))
        case let .closeIntent(id):
            record { try vault.closeIntent(id) }
        case let .markIntentInterrupted(id):
            record { try vault.markIntentInterrupted(id) }
        case let .signOffer(user, productId, offerId, name, storeKit):
            backend.signOffer(user: user, productId: productId, offerId: offerId, applicationUsername: name, storeKit: storeKit) { [weak self] in
                self?.send(.offerSigned(user: user, productId: productId, applicationUsername: name, $0))
            }
        case let .redeemCode(code, account):
            send(.codeRedeemed(code: code, store.redeem(code: code, account: account).map { $0?.id }))
        case let .addPayment(payment):
            store.add(payment)
        case let .restorePurchases(account):
            store.restoreCompletedTransactions(account: account) { [weak self] in self?.send(.restoreAnswered(user: account, $0)) }
        case let .syncAppStore(account):
            store.syncAppStore(account: account) { [weak self] in self?.send(.restoreAnswered(user: account, $0)) }
        case let .sendEntitlement(id, user):
            sendEntitlement(id, restoredBy: user)
        case let .cancelPayment(id):
            send(.cancelAnswered(transactionId: id, cancelled: store.cancelPayment(transactionId: id)))
        case let .lookUpPayers(ids):
            // What a desk can see: Apple's records of the Apple ID and the app's orders, never who pressed Buy.
            for id in ids {
                let seen = record { try SupportDesk.look(at: id, store: store.database, backend: parties.backend.database) } ?? nil
                if let payer = seen?.payer { send(.assignToBuyer(transactionId: id, user: payer)) }
            }
        case let .readStoreQueue(seconds) where seconds > 0:
            // A look again in case a payment's callback was lost: when it was not, nothing is seen to happen.
            timers.quietly(after: seconds) { [weak self] in self?.readStoreQueue(onlyNews: true) }
        case .readStoreQueue:
            timers.after(0) { [weak self] in self?.readStoreQueue() }
        case let .loadPendingPage(user, after):
            send(.pendingPageLoaded(user: user, record { try vault.pendingPage(user: user, after: after, limit: Session.pageSize) }))
        case let .persist(order, intent):
            persist(order, closingIntent: intent)
        case let .verify(order):
            VerifyTask(order: order, store: store, backend: backend, storeKit: state.storeKit, hash: { [unowned self] in hash($0) }) { [weak self] in
                self?.send(.verified($0, $1))
            }.run()
        case let .finish(id, user):
            send(.finished(transactionId: id, user: user, found: store.finish(transactionId: id)))
        case let .remove(id, user):
            record { try vault.remove(transactionId: id, user: user) }
        case let .wake(date):
            timers.at(date) { [weak self] in self?.send(.tick) }
        case let .setFault(fault, arm):
            parties.faults.set(fault, arm)
        case let .spendFault(fault):
            _ = parties.faults.fire(fault)
        case let .reportAlarms(raised):
            let device = parties.store.database.device
            let reports = raised.map {
                AlarmReport(device: device, user: $0.user, kind: $0.alarm.kind, transactionId: $0.alarm.transactionId,
                            text: $0.alarm.text(.en), raisedAt: UTCTimestamp.text($0.at))
            }
            backend.report(reports) { [weak self] in self?.send(.alarmsReported(raised, ok: (try? $0.get()) != nil)) }
        case let .compensate(orderId):
            // Support's tool on the built-in backend's own records; a team's own server (`--backend`) has its own.
            _ = record { try parties.backend.database.markCompensated(orderId: orderId, at: timers.now) }
        case let .crash(reason):
            crash(reason)
        case .reinstall:
            host?.request(.reinstall)
        case let .startScenario(name):
            host?.request(.startScenario(name))
        case .listScenarios:
            send(.scenariosListed(host?.scenarios() ?? []))
        case .listDevices:
            send(.devicesListed(devices()))
        case let .signInAppleId(name):
            store.signIn(appleId: name)
            send(.appleIdSignedIn(name))
        case .skipTime:
            // After this action's other effects, so that what they schedule is skipped to as well.
            timers.after(0) { [weak self] in
                self?.timers.skipToNextDue()
                self?.refreshClock()
                self?.parties.store.noteTime()
            }
        case .quit:
            host?.request(.quit)
        }
    }

    /// How many of the store's transactions one batch of a reading carries.
    static let storeBatch = 256
    /// A reading of the store's queue is in progress; another was asked for meanwhile.
    private var reading = false
    private var readAgain = false
    /// The reading under way is a look again: it tells only transactions the app has not seen as they are, since
    /// StoreKit delivers each change once (one still being verified is not news), and those waiting to be finished.
    private var readingOnlyNews = false

    /// Reads the store's queue a batch at a time: the first at once, the rest between frames, so that a long queue
    /// neither holds up the screen nor sits in memory whole. A reading asked for during another starts when it ends.
    /// An empty queue is no news, as StoreKit re-delivers nothing.
    private func readStoreQueue(onlyNews: Bool = false) {
        guard !halted else { return }
        guard !reading else {
            // The reading under way sees what a look again would; a full one is made after it.
            if !onlyNews { readAgain = true }
            return
        }
        readingOnlyNews = onlyNews
        readBatch(after: nil)
    }

    private func readBatch(after cursor: StoreTransaction?) {
        guard !halted else { return }
        let batch = parties.store.transactions(after: cursor, limit: Self.storeBatch)
        let more = batch.count == Self.storeBatch
        reading = more
        if readingOnlyNews {
            // A transaction whose verdict the app holds is still news: its finish did not take (C5), and seeing it is
            // what finishes it.
            let news = batch.filter { state.device.storeQueue[$0.id]?.state != $0.state || state.orders[$0.id].map { $0.status != .pending } == true }
            if !news.isEmpty { send(.storeUpdated(news, held: held(news), more: more)) }
        } else if !batch.isEmpty || cursor != nil || state.device.readingStoreQueue {
            // An empty queue is news only to a state waiting for the read to end (an Apple ID just signed in).
            send(.storeUpdated(batch, held: held(batch), more: more))
        }
        if more {
            timers.after(0) { [weak self] in self?.readBatch(after: batch.last) }
        } else if readAgain {
            readAgain = false
            readStoreQueue()
        }
    }

    /// What the client's store already holds of this news.
    private func held(_ transactions: [StoreTransaction]) -> [String: HeldOrder] {
        let paid = transactions.filter { $0.state == .purchased || $0.state == .restored }.map(\.id)
        return record { try parties.vault.held(paid) } ?? [:]
    }

    /// Everything stops where it is, as with `kill -9`: no more effects, no more answers.
    private func crash(_ reason: Localized) {
        crashReason = reason
        halted = true
        inbox = []
        if let host { host.request(.crashed(reason)) } else { untoldCrash = reason }
    }

    /// The receipt's hash, worked out once for the order that keeps it and the verification that sends it.
    private func hash(_ receipt: String) -> String {
        if let hashed, hashed.receipt == receipt { return hashed.hash }
        let hash = ReceiptHash.of(receipt)
        hashed = (receipt, hash)
        return hash
    }

    /// C2: write, read back, and say whether it took.
    private func persist(_ order: PendingOrder, closingIntent: Int64?) {
        var order = order
        if order.receiptHash == nil, let receipt = parties.store.heldReceipt() {
            order.receiptHash = hash(receipt)
        }
        let ok = record { try parties.vault.save(order, closingIntent: closingIntent) } != nil
        send(.persisted(order, ok: ok))
    }

    /// StoreKit 2's Restore: one entitlement's signed transaction, to the app's server for the user who restored, claiming
    /// it under the server's restore policy. No order, no receipt, nothing kept on the device: pressing Restore again sends
    /// it again.
    private func sendEntitlement(_ id: String, restoredBy user: String) {
        let store = parties.store
        guard let signed = store.signedTransaction(id: id), let productId = (record { try store.records.transaction(id) } ?? nil)?.entry.product_id else {
            return send(.entitlementSent(user: user, transactionId: id, .retry(reason: .notInReceipt)))
        }
        let request = VerifyRequest(receipt: "", transactionId: id, productId: productId, orderId: nil, user: user, claimsOwnership: true,
                                    signedTransaction: signed, restore: true)
        parties.clientBackend.verify(request) { [weak self] in self?.send(.entitlementSent(user: user, transactionId: id, VerifyOutcome($0, requester: user))) }
    }

    @discardableResult
    private func record<T>(_ work: () throws -> T) -> T? {
        do {
            return try work()
        } catch {
            send(.alarm(.storage(party: .client, detail: "\(error)")))
            return nil
        }
    }
}

/// One verification, as the seeds' verify task: resolve the order id (C3), fetch the receipt, ask the backend. A
/// StoreKit 2 app sends the transaction's `jwsRepresentation` instead, asked of the store afresh at each try (one that
/// failed the server's check may pass the next), and no receipt: its server asks Apple's Server API.
struct VerifyTask {
    let order: PendingOrder
    let store: PaymentQueue
    let backend: Backend
    let storeKit: StoreKitMode
    let hash: (String) -> String
    let report: (PendingOrder, VerifyOutcome) -> Void

    func run() {
        if storeKit == .two, let signed = store.signedTransaction(id: order.transactionId) {
            return withOrderId { send(receipt: "", signed: signed, order: $0) }
        }
        guard let receipt = store.appReceipt() else {
            report(order, .receiptEmpty)
            return
        }
        withOrderId { send(receipt: receipt, signed: nil, order: $0) }
    }

    private func withOrderId(_ then: @escaping (PendingOrder) -> Void) {
        if order.orderId != nil { return then(order) }
        backend.createOrder(user: order.user, productId: order.productId) { result in
            switch result {
            case let .success(orderId):
                var bound = order
                bound.orderId = orderId
                then(bound)
            case let .failure(error):
                report(order, VerifyOutcome(.failure(error)))
            }
        }
    }

    private func send(receipt: String, signed: String?, order: PendingOrder) {
        let request = VerifyRequest(receipt: receipt, transactionId: order.transactionId, productId: order.productId,
                                    orderId: order.orderId, user: order.user, receiptHash: signed == nil ? hash(receipt) : nil,
                                    claimsOwnership: order.claimsOwnership ? true : nil, signedTransaction: signed)
        backend.verify(request) { report(order, VerifyOutcome($0, requester: order.user)) }
    }
}

/// A short hash of a receipt (seed 002's md5), kept with an order and sent with each verification: the backend tells a
/// receipt it has seen before.
public enum ReceiptHash {
    public static func of(_ receipt: String) -> String {
        SHA256.hash(data: Data(receipt.utf8)).prefix(8).hex
    }
}
