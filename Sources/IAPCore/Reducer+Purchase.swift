import Foundation

/// The client rules: order before paying, persist before verifying, finish only after a verdict.
extension AppState {
    mutating func buySelected() -> [Effect] {
        guard hud == nil, let buyer = user, let product = selectedProduct else { return [] }
        guard !faults.contains(.jailbroken) else {
            // C12: the app itself refuses; the store is never asked.
            hud = HUD(.jailbroken, productId: product.id)
            return []
        }
        guard canMakePayments else {
            hud = HUD(.disabled, productId: product.id)
            return []
        }
        if serialPurchases, let unfinished = pendingOrders.first {
            // C9: the unfinished order must move first; the prompt offers exactly that.
            prompts.removeAll { $0 == unfinished.transactionId }
            prompts.insert(unfinished.transactionId, at: 0)
            modal = .unfinished(transactionId: unfinished.transactionId, choice: 0)
            return []
        }
        purchase = Purchase(user: buyer, productId: product.id)
        hud = HUD(.purchasing, productId: product.id)
        return [.createOrder(user: buyer, productId: product.id)] + triggerVerifyQueue()
    }

    mutating func orderCreated(buyer: String, productId: String, _ result: Result<String, BackendError>) -> [Effect] {
        guard let current = purchase, current.user == buyer, current.productId == productId, current.transactionId == nil else {
            return []
        }
        // Without an order the payment still goes ahead (the verify step asks for one later, C3, B4),
        // but never without a durable note of who is paying.
        let orderId = try? result.get()
        paymentIntents.removeAll { $0.user == buyer && $0.productId == productId }
        paymentIntents.append(PaymentIntent(user: buyer, productId: productId, orderId: orderId))
        return [
            .recordIntent(user: buyer, productId: productId, orderId: orderId),
            .addPayment(Payment(productId: productId, applicationUsername: orderId)),
        ]
    }

    mutating func storeUpdated(_ transaction: StoreTransaction) -> [Effect] {
        storeQueue.insert(transaction.id)
        let ours = purchase.map { $0.productId == transaction.productId && ($0.transactionId ?? transaction.id) == transaction.id } ?? false
        switch transaction.state {
        case .purchasing:
            if ours { purchase?.transactionId = transaction.id }
            return []
        case .deferred:
            if ours {
                hud = HUD(.deferred, productId: transaction.productId, transactionId: transaction.id)
                purchase = nil
            }
            return []
        case .failed:
            if ours {
                hud = HUD(transaction.error == .cancelled ? .cancelled : .failed, productId: transaction.productId, transactionId: transaction.id)
                purchase = nil
            }
            // A failed transaction was never charged: finish it so it leaves the queue.
            return [.finish(transactionId: transaction.id, user: nil)]
        case .purchased, .restored:
            if ours { purchase?.transactionId = transaction.id }
            return claim(transaction)
        }
    }

    /// The observer's rule: a paid transaction is written to its buyer's store before anything else (C2).
    mutating func claim(_ transaction: StoreTransaction) -> [Effect] {
        if let known = orders[transaction.id] {
            // Re-delivered: a pending one is already queued; a verdict already reached only waits for the finish (C5, C6).
            return known.status == .pending ? [] : [.finish(transactionId: known.transactionId, user: known.user)]
        }
        guard !otherUsersTransactions.contains(transaction.id) else { return [] }  // C7: its owner resumes it
        guard let (owner, orderId) = buyer(of: transaction) else {
            unclaimed.append(transaction)
            return []
        }
        let order = PendingOrder(
            transactionId: transaction.id,
            user: owner,
            productId: transaction.productId,
            orderId: orderId,
            purchasedAt: transaction.date,
            price: product(transaction.productId)?.price[lang] ?? "",
            receiptHash: nil
        )
        return [.persist(order)]
    }

    /// I3: who paid, from the purchase in flight, else the order named by `applicationUsername`, else the order
    /// made before paying for that product (C3); only then whoever is logged in. Nil: wait for a login.
    private func buyer(of transaction: StoreTransaction) -> (String, String?)? {
        let name = transaction.applicationUsername.flatMap { $0.isEmpty ? nil : $0 }
        if let current = purchase, current.transactionId == transaction.id {
            return (current.user, name ?? intent(transaction.productId, preferring: current.user).flatMap(\.orderId))
        }
        if let name {
            if let made = paymentIntents.first(where: { $0.orderId == name }) { return (made.user, name) }
            if let made = intent(transaction.productId, preferring: user) { return (made.user, name) }
            return user.map { ($0, name) }
        }
        if let made = intent(transaction.productId, preferring: user) { return (made.user, made.orderId) }
        return user.map { ($0, nil) }
    }

    private func intent(_ productId: String, preferring preferred: String?) -> PaymentIntent? {
        let candidates = paymentIntents.filter { $0.productId == productId }
        return candidates.first { $0.user == preferred } ?? candidates.first
    }

    mutating func persisted(_ order: PendingOrder, ok: Bool) -> [Effect] {
        if !ok { alarms.append(.writeFailed(transactionId: order.transactionId)) }
        if order.user == user { orders[order.transactionId] = order }
        if order.status == .pending, purchase?.transactionId == order.transactionId, hud?.kind == .purchasing {
            hud = HUD(.confirming, productId: order.productId, transactionId: order.transactionId)
            priority = order.transactionId
        }
        return pumpVerifyQueue()
    }

    mutating func verified(_ sent: PendingOrder, _ outcome: VerifyOutcome) -> [Effect] {
        if verifying == sent.transactionId { verifying = nil }
        var order = sent
        var effects: [Effect] = []
        let shown = hud?.transactionId == order.transactionId
        switch outcome {
        case .valid:
            order.status = .verified
            effects = [.persist(order), .finish(transactionId: order.transactionId, user: order.user)]
            if shown {
                hud?.kind = .success
                purchase = nil
            }
        case .invalid:
            order.status = .rejected
            effects = [.persist(order), .finish(transactionId: order.transactionId, user: order.user)]
            if shown {
                hud?.kind = .verifyFailed
                purchase = nil
            }
        case let .retry(reason):
            order.attempts += 1
            order.lastAttemptAt = now
            if order.attempts == policy.alarmThreshold {
                alarms.append(.verifyFailing(transactionId: order.transactionId, attempts: order.attempts, reason: reason))
            }
            effects = [.persist(order)]
        }
        if order.user == user { orders[order.transactionId] = order }
        return effects
    }

    mutating func finished(_ transactionId: String, owner: String?, found: Bool) -> [Effect] {
        if found { storeQueue.remove(transactionId) }
        guard let owner else { return [] }
        if owner == user, let order = orders[transactionId] {
            guard found else { return [] }  // C5: stays flagged, finished when the store shows it again
            orders[transactionId] = nil
            paymentIntents.removeAll { $0.user == owner && $0.productId == order.productId }
            return [.remove(transactionId: transactionId, user: owner), .refreshAccount(owner)]
        }
        return found ? [.remove(transactionId: transactionId, user: owner)] : []
    }

    /// Launch, login, a new purchase, network back, foreground: every order gets its quick retries again.
    mutating func triggerVerifyQueue() -> [Effect] {
        triesSinceTrigger = [:]
        snoozed = []
        return pumpVerifyQueue()
    }

    /// Starts the next verification when none is in flight, or sets a wake-up for the next one due.
    mutating func pumpVerifyQueue() -> [Effect] {
        // In the background iOS suspends the app: nothing runs until it comes back (a trigger).
        guard verifying == nil, user != nil, !faults.contains(.background) else { return [] }
        if let id = priority {
            priority = nil
            if let order = orders[id], order.status == .pending { return startVerifying(order) }
        }
        var ready: PendingOrder?
        var earliest: Date?
        let asked = Set(prompts)
        for order in orders.values where order.status == .pending {
            let id = order.transactionId
            guard !snoozed.contains(id), !asked.contains(id), let due = nextAttempt(for: order) else { continue }
            if due <= now {
                if ready.map({ VerifyPolicy.precedes(order, $0) }) ?? true { ready = order }
            } else if earliest.map({ due < $0 }) ?? true {
                earliest = due
            }
        }
        if let ready { return startVerifying(ready) }
        guard let earliest, wakeAt.map({ earliest < $0 }) ?? true else { return [] }
        wakeAt = earliest
        return [.wake(at: earliest)]
    }

    private mutating func startVerifying(_ order: PendingOrder) -> [Effect] {
        verifying = order.transactionId
        triesSinceTrigger[order.transactionId, default: 0] += 1
        return [.verify(order)]
    }
}
