import Foundation

extension AppState {
    /// The one place state changes: applies `action` at `now` and returns the work to do. An alarm it raised goes to
    /// the backend too, for support (seed 002).
    public mutating func reduce(_ action: Action, now: Date) -> [Effect] {
        let unsent = device.unsentAlarms.count
        var effects = apply(action, now: now)
        // Only `raise` adds to the unsent alarms, and no action that raises one also takes one away.
        if device.unsentAlarms.count > unsent { effects.append(.reportAlarms(Array(device.unsentAlarms[unsent...]))) }
        return effects
    }

    /// A payment sheet up, or a HUD waiting on the store or the backend: what `q` asks about before quitting. The
    /// question stays when the purchase ends under it (the user asked to quit), and then says nothing is in flight.
    public var purchaseInFlight: Bool { device.purchase != nil || device.hud?.kind.isWaiting == true }

    /// Puts an alarm on screen and in line for the backend; `once`: not again while the same one is on screen.
    mutating func raise(_ alarm: Alarm, once: Bool = false) {
        guard !once || !device.alarms.contains(alarm) else { return }
        device.alarms.append(alarm)
        device.unsentAlarms.append(Device.RaisedAlarm(alarm: alarm, at: now, user: user))
    }

    /// Alarms the backend could not take yet go again at a trigger (foreground, network back, a log in…).
    mutating func reportUnsentAlarms() -> [Effect] {
        device.unsentAlarms.isEmpty ? [] : [.reportAlarms(device.unsentAlarms)]
    }

    private mutating func apply(_ action: Action, now: Date) -> [Effect] {
        self.now = now
        switch action {
        case let .launched(canPay, user):
            device.canMakePayments = canPay
            productsStatus = .loading
            // The runtime has just begun reading the store's whole queue (C1): no need to look again at this login.
            return [.requestProducts] + (user.map { logIn($0, lookAtStoreQueue: false) } ?? [])
        case let .key(key):
            return handle(key)
        case let .intent(intent):
            return perform(intent)
        case let .productsLoaded(.success(list)):
            products = list
            productsStatus = list.isEmpty ? .empty : .loaded
            selection = min(selection, max(shopIdentifiers.count - 1, 0))
            if let wanted = selectOnLoad, let index = shopIdentifiers.firstIndex(of: wanted) { selection = index }
            selectOnLoad = nil
            showNextPrompt()
            return []
        case .productsLoaded(.failure):
            productsStatus = .failed
            selection = min(selection, max(productIdentifiers.count - 1, 0))
            showNextPrompt()
            return []
        case let .userLoaded(name, snapshot):
            return userLoaded(name, snapshot)
        case let .accountLoaded(name, loaded):
            if name == user { session?.account = loaded }
            return []
        case let .subscriptionsLoaded(name, loaded):
            if name == user { session?.subscriptions = loaded }
            return []
        case let .orderCreated(buyer, productId, result, eligibility):
            return orderCreated(buyer: buyer, productId: productId, result, introductoryOfferEligibility: eligibility)
        case let .appAccountTokenFetched(user, result):
            return appAccountTokenFetched(user: user, result)
        case let .codeRedeemed(_, .failure(error)):
            // The sheet's own refusal: nothing was charged, nothing arrives.
            device.hud = HUD(.offerRefused, error: error)
            return []
        case let .codeRedeemed(_, .success(id)):
            // The sheet says it took the code; a wait on screen (a purchase of another sheet) is not covered.
            if device.hud?.kind.isWaiting != true { device.hud = HUD(.codeRedeemed, transactionId: id, charge: HUD.Charge(redeemed: true)) }
            return []
        case let .offerSigned(buyer, productId, orderId, result):
            return offerSigned(buyer: buyer, productId: productId, orderId: orderId, result)
        case let .intentRecorded(buyer, productId, intent):
            return intentRecorded(buyer: buyer, productId: productId, intent)
        case let .storeUpdated(transactions, held, more):
            var effects: [Effect] = []
            for transaction in transactions { effects += storeUpdated(transaction, heldAs: held[transaction.id]) }
            // An intent closed by this news may have been all that kept a held transaction from its buyer.
            if effects.contains(where: { if case .closeIntent = $0 { true } else { false } }) { effects += retryUnclaimed() }
            device.readingStoreQueue = more
            if !more, session?.loginCheckDue == true { effects += lookAtWholeQueueAfterLogin() }
            return effects + pumpVerifyQueue()
        case let .pendingPageLoaded(name, page):
            return pendingPageLoaded(name, page)
        case let .restoreAnswered(account, result):
            return restoreAnswered(account, result)
        case let .entitlementSent(user, transactionId, outcome):
            return entitlementSent(user, transactionId, outcome)
        case let .cancelAnswered(transactionId, cancelled):
            return cancelAnswered(transactionId, cancelled: cancelled)
        case let .assignToBuyer(transactionId, buyer):
            return assignToBuyer(transactionId, buyer)
        case .refundAnswered:
            // What the refund changes reaches the app as Apple tells it (a revoked transaction, the backend's account).
            return []
        case let .persisted(order, ok):
            return persisted(order, ok: ok)
        case let .verified(order, outcome):
            return verified(order, outcome)
        case let .finished(transactionId, owner, found):
            return finished(transactionId, owner: owner, found: found)
        case .tick:
            if let wake = device.wakeAt, wake <= now { device.wakeAt = nil }
            return pumpVerifyQueue()
        case let .setFault(fault, arm):
            return setFault(fault, arm)
        case .faultFired:
            return []  // the board has spent a one-shot fault; the runtime copies what it holds now
        case let .switchUser(name):
            return logOut() + logIn(name)
        case let .appleIdSignedIn(name):
            return appleIdSignedIn(name)
        case let .entitlementsRevoked(productIds):
            return entitlementsRevoked(productIds)
        case .foreground:
            return foreground()
        case let .setLanguage(language):
            lang = language
            return []
        case let .scenariosListed(list):
            ScenariosPanel().listed(list, in: &self)
            return []
        case let .devicesListed(list):
            DevicesPanel().listed(list, in: &self)
            return []
        case let .alarm(message):
            raise(message)
            return []
        case let .alarmsReported(sent, ok):
            if ok { device.unsentAlarms.removeAll { sent.contains($0) } }
            return []
        case let .serving(address):
            servingAt = address
            return []
        }
    }

    /// What is armed is the fault board's: the effect arms it, and `faults` follows the board (AppRuntime).
    mutating func setFault(_ fault: Fault, _ arm: FaultArm?) -> [Effect] {
        if fault == .paymentsDisabled { device.canMakePayments = arm == nil }
        // The network back, the app back in the foreground: both are triggers (C4).
        let backendBack = arm == nil && fault == .backendDown
        let trigger = backendBack || (arm == nil && fault == .background)
        // The backend back: the account it could not give meanwhile (a login) is asked for again, not left at 0 coins.
        return [.setFault(fault, arm)] + (trigger ? triggerVerifyQueue() : []) + (backendBack ? accountRefresh : [])
    }

    /// The logged-in user's account asked for again; nothing when no one is logged in.
    var accountRefresh: [Effect] {
        user.map { [.refreshAccount($0)] } ?? []
    }

    /// Back in the foreground: a trigger for the verify queue, and a fresh look at the store's queue (seeds 002, 004);
    /// a product list that failed or came back empty is asked for again (seed 004, S3). A one-shot `background` is over.
    mutating func foreground() -> [Effect] {
        spendIfOnce(.background) + triggerVerifyQueue() + [.readStoreQueue(after: 0)] + accountRefresh
            + askProductsAgain()
    }

    /// A one-shot fault the app itself obeys (jailbroken, payments disabled, background) is spent by the step it
    /// refused or held back: gone from the state at once, and from the board by the effect.
    mutating func spendIfOnce(_ fault: Fault) -> [Effect] {
        guard faults.arm(fault)?.once == true else { return [] }
        faults.remove(fault)
        return [.spendFault(fault)]
    }

    /// Asks the store for the product list again when the last answer was a failure or an empty list; nothing while one
    /// is on its way or the list is there.
    mutating func askProductsAgain() -> [Effect] {
        guard productsStatus == .failed || productsStatus == .empty else { return [] }
        productsStatus = .loading
        return [.requestProducts]
    }

    /// Entering the product list also looks at the store's queue again, in case a callback was lost meanwhile.
    mutating func logIn(_ name: String, lookAtStoreQueue: Bool = true) -> [Effect] {
        session = Session(user: name)
        loginText = ""
        selection = 0
        // StoreKit 2: the user's appAccountToken is asked for at login, so that a purchase need not wait for it.
        let token: [Effect] = storeKit == .two ? [.fetchAppAccountToken(user: name)] : []
        return [.setLastUser(name), .loadUser(name), .refreshAccount(name)] + token + (lookAtStoreQueue ? [.readStoreQueue(after: 0)] : [])
            + askProductsAgain()
    }

    /// The session goes, and with it everything of this user's: nothing to reset by hand.
    mutating func logOut() -> [Effect] {
        session = nil
        modal = nil
        device.hud = nil
        return [.setLastUser(nil)]
    }

    private mutating func userLoaded(_ name: String, _ snapshot: UserSnapshot?) -> [Effect] {
        guard name == user else { return [] }
        guard let snapshot else {
            raise(.readFailed(user: name))
            return []
        }
        var loaded = Session(user: name)
        loaded.accountReading = session?.accountReading
        loaded.orders = Dictionary(snapshot.pending.map { ($0.transactionId, $0) }, uniquingKeysWith: { $1 })
        loaded.pendingTotal = snapshot.pendingTotal
        loaded.pageEnd = snapshot.pending.last { $0.status == .pending }
        // C8: every order found at login is asked about before the queue touches it.
        loaded.prompts = loaded.pendingIds
        loaded.loginCheckDue = device.readingStoreQueue
        session = loaded
        device.paymentIntents = snapshot.paymentIntents
        var effects: [Effect] = []
        if !device.readingStoreQueue { effects += lookAtWholeQueueAfterLogin() }
        showNextPrompt()
        effects += pumpVerifyQueue()
        return effects + readNextPageIfAnswered()
    }

    /// What a login decides from the store's whole queue (C1), once all of it has been read.
    private mutating func lookAtWholeQueueAfterLogin() -> [Effect] {
        session?.loginCheckDue = false
        guard let name = user else { return [] }
        var effects: [Effect] = []
        // An intent none of the queue could belong to is closed before anything is attributed, so that it cannot make a
        // payment look ambiguous.
        for stale in device.staleIntents(orders: orders) {
            device.paymentIntents.removeAll { $0.id == stale.id }
            effects.append(.closeIntent(stale.id))
        }
        effects += retryUnclaimed()
        // A verdict reached before a crash: finish it if the store still holds it, else the store already did. The queue
        // shows only the signed-in Apple ID's: another Apple ID's order waits for a login while that one is signed in.
        for order in orders.values where order.status != .pending && order.appleId == device.appleId {
            if device.storeQueue[order.transactionId] != nil {
                effects.append(.finish(transactionId: order.transactionId, user: name))
            } else {
                session?.drop(order.transactionId)
                effects.append(.remove(transactionId: order.transactionId, user: name))
            }
        }
        return effects
    }

    /// The backlog's next page: its orders were found at login, so each is asked about (C8).
    private mutating func pendingPageLoaded(_ name: String, _ page: PendingPage?) -> [Effect] {
        guard name == user, var current = session else { return [] }
        current.pageRequested = false
        guard let page else {
            session = current
            raise(.readFailed(user: name))
            return []
        }
        current.pendingTotal = page.total
        let before = current.pageEnd
        if let last = page.orders.last { current.pageEnd = last }
        let movedOn = current.pageEnd.map { end in before.map { VerifyPolicy.queueKey($0) < VerifyPolicy.queueKey(end) } ?? true } ?? false
        for order in page.orders where current.orders[order.transactionId] == nil {
            current.orders[order.transactionId] = order
            current.prompts.append(order.transactionId)
        }
        session = current
        showNextPrompt()
        // A page of orders already in memory (tried since, they moved past where it starts) asks about nothing: read on
        // from its end, as long as the end moves.
        return pumpVerifyQueue() + (movedOn ? readNextPageIfAnswered() : [])
    }

    /// Reads the next page once every order found at login in memory has been answered and the backlog holds more.
    mutating func readNextPageIfAnswered() -> [Effect] {
        session?.nextPageIfAnswered().map { [$0] } ?? []
    }

    /// The next order found at launch or login asked about, once the product list has come: the prompt names what
    /// was bought, as the list does (an order of a product the store no longer sells shows its identifier).
    mutating func showNextPrompt() {
        guard modal == nil, device.hud == nil, productsStatus != .loading, var current = session else { return }
        current.prompts.removeAll { current.orders[$0]?.status != .pending }
        session = current
        if let next = current.prompts.first { modal = .unfinished(transactionId: next, choice: 0) }
    }
}
