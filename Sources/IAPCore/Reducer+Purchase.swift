import Foundation

/// The client rules: order before paying, an intent on disk before the payment, persist before verifying, finish
/// only after a verdict.
extension AppState {
    /// A payment whose callback is lost is found by looking at the store's queue again this long after paying.
    public static let lookAgainAfterPayment = 5.0

    mutating func buy(_ productId: String) -> [Effect] {
        // Without a product list, a purchase by identifier (seeds 000, 004): the store knows what it sells.
        guard device.hud == nil, let buyer = user, shopIdentifiers.contains(productId) else { return [] }
        guard !faults.contains(.jailbroken) else {
            // C12: the app itself refuses; the store is never asked.
            device.hud = HUD(.jailbroken, productId: productId)
            return spendIfOnce(.jailbroken)
        }
        guard device.canMakePayments else {
            device.hud = HUD(.disabled, productId: productId)
            let spent = spendIfOnce(.paymentsDisabled)
            if !spent.isEmpty { device.canMakePayments = true }
            return spent
        }
        if serialPurchases, let unfinished = pendingOrders.first {
            // C9: the unfinished order must move first; the prompt offers exactly that.
            session?.prompts.removeAll { $0 == unfinished.transactionId }
            session?.prompts.insert(unfinished.transactionId, at: 0)
            modal = .unfinished(transactionId: unfinished.transactionId, choice: 0)
            return []
        }
        let token = storeKit == .two ? session?.appAccountToken : nil
        // StoreKit 2 pays with the user's appAccountToken, asked for at login: a purchase made before it came asks again.
        let awaiting = storeKit == .two && token == nil
        device.purchase = Purchase(user: buyer, productId: productId, appAccountToken: token, awaitingToken: awaiting,
                                   offerId: offerChoices[productId])
        // A promotional offer chosen on the paywall goes first; else the win-back offer the Apple ID may take.
        let winBack = offerChoices[productId] == nil ? product(productId).flatMap(winBackOffer(for:)) : nil
        device.purchase?.winBackOfferId = winBack?.id
        let plan: BillingPlan? = storeKit == .two && monthlyPlanChoices.contains(productId) ? .monthly : nil
        device.purchase?.billingPlan = plan
        let offerId = offerChoices[productId] ?? winBack?.id
        let intro = device.purchase?.mayTakeIntroOffer == true ? product(productId).flatMap(introOffer(for:)) : nil
        let charge = offerId == nil && plan == nil && intro == nil ? nil : HUD.Charge(offerId: offerId, billingPlan: plan, intro: intro)
        device.hud = HUD(.purchasing, productId: productId, charge: charge)
        // The plan is chosen for this purchase (a subscription starts on it): the list says the subscription's status
        // behind it. A promotional offer stays chosen, for a subscriber who buys it again.
        monthlyPlanChoices.remove(productId)
        let first: Effect = awaiting ? .fetchAppAccountToken(user: buyer) : .createOrder(user: buyer, productId: productId, storeKit: storeKit)
        return [first] + triggerVerifyQueue()
    }

    /// Without a token the payment still goes ahead, as without an order: its transaction is then attributed by the
    /// evidence rules, as a purchase made outside the app is. A user switched in meanwhile does not stop it (as an
    /// order answered late does not), and never lends it their token.
    mutating func appAccountTokenFetched(user: String, _ result: Result<UUID, BackendError>) -> [Effect] {
        let token = try? result.get()
        if let token, session?.user == user { session?.appAccountToken = token }
        // The first answer the purchase waits for decides (the login's or its own): the order is asked for once.
        guard let current = device.purchase, current.user == user, current.awaitingToken else { return [] }
        device.purchase?.awaitingToken = false
        device.purchase?.appAccountToken = token
        return [.createOrder(user: user, productId: current.productId, storeKit: storeKit)]
    }

    mutating func orderCreated(buyer: String, productId: String, _ result: Result<String, BackendError>,
                               introductoryOfferEligibility eligibility: IntroOfferEligibility?) -> [Effect] {
        guard let current = device.purchase, current.user == buyer, current.productId == productId, current.paymentId == nil else { return [] }
        if storeKit == .two, let eligibility {
            device.purchase?.introductoryOfferEligibility = eligibility.compactJWS
            // The server's word, not the Apple ID's history, decides the intro offer now: the HUD says what is charged.
            if let allows = eligibility.allows, current.mayTakeIntroOffer, device.hud?.kind == .purchasing {
                let intro = allows ? product(productId)?.subscription?.introOffer : nil
                device.hud?.charge = intro.map { HUD.Charge(intro: $0) }
            }
        }
        // Without an order the payment still goes ahead (the verify step asks for one later, C3, B4),
        // but never without a durable note of who is paying.
        let orderId = try? result.get()
        if let offerId = current.offerId {
            // StoreKit 1's signature covers the payment's applicationUsername: the order id, signed before paying.
            return [.signOffer(user: buyer, productId: productId, offerId: offerId, applicationUsername: orderId, storeKit: storeKit)]
        }
        return [.recordIntent(user: buyer, productId: productId, orderId: orderId, appAccountToken: device.purchase?.appAccountToken, at: now)]
    }

    /// Apple sells a promotional offer only with the app's server's signature: without one, nothing is paid.
    mutating func offerSigned(buyer: String, productId: String, orderId: String?, _ result: Result<OfferSignature, BackendError>) -> [Effect] {
        guard let current = device.purchase, current.user == buyer, current.productId == productId, current.paymentId == nil,
              current.offerId != nil else { return [] }
        guard case let .success(signature) = result else {
            device.purchase = nil
            device.hud = HUD(.offerRefused, productId: productId)
            return []
        }
        device.purchase?.offerSignature = signature
        return [.recordIntent(user: buyer, productId: productId, orderId: orderId, appAccountToken: device.purchase?.appAccountToken, at: now)]
    }

    /// The paywall's offer for a subscription: one of its promotional offers, or none.
    mutating func chooseOffer(_ productId: String, _ offerId: String?) -> [Effect] {
        guard let terms = product(productId)?.subscription else { return [] }
        if let offerId {
            guard terms.promotionalOffer(offerId) != nil else { return [] }
            offerChoices[productId] = offerId
            monthlyPlanChoices.remove(productId)
        } else {
            offerChoices[productId] = nil
        }
        return []
    }

    /// `o` on the product list, the paywall's offers in turn: the highlighted subscription's promotional offers, then in
    /// StoreKit 2 its plan "monthly with a 12-month commitment", then StoreKit's offer code redemption sheet (the regular
    /// price again behind it); on a product with none of these, the sheet at once.
    mutating func nextOffer() -> [Effect] {
        guard let product = selectedProduct, device.hud == nil else { return [] }
        if monthlyPlanChoices.remove(product.id) != nil {
            modal = .redeemCode(text: "")
            return []
        }
        let offers = product.subscription?.promotionalOffers ?? []
        let index = offerChoices[product.id].flatMap { id in offers.firstIndex { $0.id == id } }
        let next = index.map { $0 + 1 < offers.count ? offers[$0 + 1].id : nil } ?? offers.first?.id
        _ = chooseOffer(product.id, next)
        if next == nil, storeKit == .two, product.subscription?.monthlyCommitment != nil {
            monthlyPlanChoices.insert(product.id)
        } else if next == nil {
            modal = .redeemCode(text: "")
        }
        return []
    }

    mutating func intentRecorded(buyer: String, productId: String, _ intent: PaymentIntent?) -> [Effect] {
        guard let current = device.purchase, current.user == buyer, current.productId == productId, current.paymentId == nil else {
            // The purchase was given up meanwhile: this intent's payment is never added.
            return intent.map { [.closeIntent($0.id)] } ?? []
        }
        guard let intent else {
            // The note of who is paying could not be written (the runtime raised the alarm): do not pay.
            device.purchase = nil
            device.hud = HUD(.failed, productId: productId)
            return []
        }
        device.paymentIntents.append(intent)
        device.purchase?.paymentId = intent.id
        return [
            // StoreKit 2's purchase carries no string of the app's: the order stays with the intent, the token names the buyer.
            .addPayment(Payment(productId: productId, applicationUsername: storeKit == .two ? nil : intent.orderId, pressedBy: buyer, id: intent.id,
                                appAccountToken: device.purchase?.appAccountToken, offerSignature: current.offerSignature,
                                introductoryOfferEligibility: current.introductoryOfferEligibility, winBackOfferId: current.winBackOfferId,
                                billingPlan: current.billingPlan, storeKit: storeKit)),
            .readStoreQueue(after: Self.lookAgainAfterPayment),
        ]
    }

    mutating func storeUpdated(_ transaction: StoreTransaction, heldAs held: HeldOrder? = nil) -> [Effect] {
        if let held, orders[transaction.id] == nil {
            // Some user's store holds it already. A pending one waits in its owner's backlog (which stays on disk);
            // one with a verdict waits only for the store to finish it, at its owner's login (C5, C6, C7).
            device.unclaimed.removeAll { $0.id == transaction.id }
            if held.status != .pending {
                device.storeQueue[transaction.id] = transaction
                device.claimed.insert(transaction.id)
            }
            return []
        }
        let seenBefore = device.storeQueue[transaction.id]
        device.storeQueue[transaction.id] = transaction
        let ours = device.purchase?.paymentId != nil && transaction.paymentId == device.purchase?.paymentId
        switch transaction.state {
        case .purchasing:
            if ours {
                device.purchase?.transactionId = transaction.id
                // S7: the sheet says it is owned already and will be restored for free.
                if transaction.originalTransactionId != nil, device.hud?.kind == .purchasing {
                    let subscribed = product(transaction.productId)?.kind == .subscription
                    device.hud?.kind = subscribed ? .alreadySubscribed : .alreadyOwned
                    // An offer the subscriber asked for starts at the next renewal of what they have.
                    let offerId = subscribed ? device.hud?.charge?.offerId : nil
                    device.hud?.charge = HUD.Charge(offerId: offerId, free: true)
                }
            }
            return []
        case .deferred:
            if ours {
                device.hud = HUD(.deferred, productId: transaction.productId, transactionId: transaction.id)
                device.purchase = nil
            }
            return []
        case .failed:
            if ours {
                let kind: HUD.Kind = switch transaction.error {
                case .cancelled?: .cancelled
                case .changesAtRenewal?: .planChanged
                case let error? where error.appleName() != nil: .offerRefused
                default: .failed
                }
                // Said when an interrupted payment's completion may follow it (`claim` lets the HUD follow that).
                let said = kind == .offerRefused || [.alreadyPending, .interrupted].contains(transaction.error) ? transaction.error : nil
                device.hud = HUD(kind, productId: transaction.productId, transactionId: transaction.id, error: said, charge: device.hud?.charge)
                device.purchase = nil
            } else if device.hud?.kind == .deferred, device.hud?.transactionId == transaction.id {
                // The parent said no to the Ask to Buy the HUD still waits on (StoreKit 2 is never told).
                device.hud = HUD(.failed, productId: transaction.productId, transactionId: transaction.id)
            }
            var effects: [Effect] = []
            // Apple turned an offer away as not the Apple ID's (a win-back offer past its window): read the
            // subscriptions again, so the list stops offering it.
            if ours, transaction.error == .ineligibleForOffer, let user { effects.append(.refreshAccount(user)) }
            for intent in seenBefore?.state == .failed ? [] : device.intentsOfFailed(transaction) {
                if transaction.error == .interrupted {
                    // Apple may still complete an interrupted payment with a new transaction: the intent waits for it.
                    if let index = device.paymentIntents.firstIndex(where: { $0.id == intent.id }), !intent.interrupted {
                        device.paymentIntents[index].interrupted = true
                        effects.append(.markIntentInterrupted(intent.id))
                    }
                } else {
                    device.paymentIntents.removeAll { $0.id == intent.id }
                    effects.append(.closeIntent(intent.id))
                }
            }
            if storeKit == .two && ours && transaction.error != .interrupted {
                // StoreKit 2: purchase(options:)'s result, which leaves no transaction to finish (the store keeps an
                // interrupted one, which Apple may still complete, for the app to finish as StoreKit 1's).
                device.storeQueue[transaction.id] = nil
                return effects
            }
            // A failed transaction was never charged: finish it so it leaves the queue.
            return effects + [.finish(transactionId: transaction.id, user: nil)]
        case .purchased, .restored:
            if ours { device.purchase?.transactionId = transaction.id }
            // A subscription's status changes when Apple charges, not when the backend credits: read it again now, or
            // with the backend down the list goes on offering a free trial the Apple ID has had.
            let charged = product(transaction.productId)?.kind == .subscription && seenBefore?.state != transaction.state
            guard charged, let user else { return claim(transaction) }
            return claim(transaction) + [.readSubscriptions(user)]
        }
    }

    /// The observer's rule: a paid transaction is written to its buyer's store before anything else (C2).
    mutating func claim(_ transaction: StoreTransaction) -> [Effect] {
        if let known = orders[transaction.id] {
            device.unclaimed.removeAll { $0.id == transaction.id }
            // Re-delivered: a pending one is already queued; a verdict already reached only waits for the finish (C5, C6).
            return known.status == .pending ? [] : [.finish(transactionId: known.transactionId, user: known.user)]
        }
        // C7: another user's transaction is resumed by its owner; one already being written is not written twice.
        guard !device.claimed.contains(transaction.id) else {
            device.unclaimed.removeAll { $0.id == transaction.id }
            return []
        }
        switch device.attribute(transaction, loggedIn: user) {
        case .awaitingLogin:
            device.hold(transaction)
            return []
        case .unattributable:
            device.hold(transaction)
            let alarm = Alarm.unattributed(transactionId: transaction.id, productId: transaction.productId)
            raise(alarm, once: true)
            return []
        case let .buyer(owner, orderId, intent):
            return claim(transaction, for: owner, orderId: orderId, intent: intent)
        }
    }

    private mutating func claim(_ transaction: StoreTransaction, for owner: String, orderId: String?, intent: Int64?) -> [Effect] {
        // The interrupted payment the HUD said failed went through after all (Apple completed it with a new
        // transaction): the HUD follows it as a purchase in flight, rather than saying it failed over the new balance.
        if owner == user, let hud = device.hud, hud.kind == .failed, hud.error == .interrupted, hud.productId == transaction.productId,
           transaction.state == .purchased {
            device.hud = HUD(.confirming, productId: transaction.productId, transactionId: transaction.id)
        }
        device.unclaimed.removeAll { $0.id == transaction.id }
        if let intent { device.paymentIntents.removeAll { $0.id == intent } }
        device.claimed.insert(transaction.id)
        let order = PendingOrder(
            transactionId: transaction.id,
            user: owner,
            productId: transaction.productId,
            orderId: orderId,
            purchasedAt: transaction.date,
            price: charged(transaction),
            receiptHash: nil,
            // Evidence that the owner pressed Buy (an intent of theirs) or Restore for this very transaction.
            claimsOwnership: intent != nil || device.restorer(of: transaction) == owner,
            appleId: device.appleId
        )
        return [.persist(order, closingIntent: intent)]
    }

    /// What the payment charged: nothing after Apple's "already purchased" sheet, or for a non-consumable delivered again
    /// under its first purchase (S7); the offer's, the plan's or the intro offer's price for the purchase in flight that
    /// asked for one; else the catalog's. A value when the catalog gave an amount; else its words (the same in either
    /// language), so the order still says what it cost if the catalog changes.
    private func charged(_ transaction: StoreTransaction) -> PendingOrder.Price? {
        guard let product = product(transaction.productId) else { return nil }
        let catalog = product.amount.map { PendingOrder.Price.value($0) } ?? .shown(product.price[lang])
        let charge = device.purchase?.transactionId == transaction.id ? device.hud?.charge : nil
        let words: Localized?
        if charge?.free == true || (product.kind == .nonConsumable && transaction.originalTransactionId != nil) {
            words = nil
        } else if let terms = charge?.offerId.flatMap({ product.subscription?.offer(asked: $0)?.terms }) ?? charge?.intro {
            words = terms.mode == .freeTrial ? nil : terms.price
        } else if charge?.billingPlan == .monthly, let plan = product.subscription?.monthlyCommitment {
            words = plan.monthlyPrice
        } else {
            return catalog
        }
        guard let currency = product.amount?.currency else { return words.map { .shown($0[lang]) } ?? catalog }
        guard let words else { return .value(Money(0, currency)) }
        return Money(shown: words[.en], currency: currency).map { .value($0) } ?? .shown(words[lang])
    }

    /// Transactions held unclaimed get another look when the evidence may have changed (a login, an intent closed).
    mutating func retryUnclaimed() -> [Effect] {
        // Only what the store still holds: a transaction finished meanwhile (by its owner) is nobody's to claim.
        device.unclaimed.removeAll { device.storeQueue[$0.id] == nil }
        let waiting = device.unclaimed
        var effects: [Effect] = []
        for transaction in waiting { effects += claim(transaction) }
        return effects
    }

    /// Support read Apple's records and names who paid for a transaction no evidence could attribute.
    mutating func assignToBuyer(_ transactionId: String, _ buyer: String) -> [Effect] {
        guard let transaction = device.unclaimed.first(where: { $0.id == transactionId }) else { return [] }
        device.alarms.removeAll { $0 == .unattributed(transactionId: transaction.id, productId: transaction.productId) }
        // Only an intent that could be this payment, as the observer takes one: another Apple ID's is another payment's.
        let intent = device.possibleIntents(of: transaction).filter { $0.user == buyer }
            .min { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
        return claim(transaction, for: buyer, orderId: transaction.applicationUsername.flatMap { $0.isEmpty ? nil : $0 } ?? intent?.orderId,
                     intent: intent?.id) + pumpVerifyQueue()
    }

    mutating func persisted(_ order: PendingOrder, ok: Bool) -> [Effect] {
        if !ok { raise(.writeFailed(transactionId: order.transactionId)) }
        if order.user == user { session?.keep(order) }
        // Only the first save of the purchase jumps the queue: a restore's sheet stays up while it is retried, and each
        // retry's save jumped it again, verifying every 0.2 s without back-off while the backend was down.
        if order.status == .pending, order.attempts == 0, device.purchase?.transactionId == order.transactionId,
           device.hud?.kind.isPaymentSheet == true {
            // A restore keeps saying what it is: owned already, coming back for free.
            let kind = device.hud?.kind ?? .confirming
            device.hud = HUD(kind.isFreeSheet ? kind : .confirming, productId: order.productId, transactionId: order.transactionId,
                             charge: device.hud?.charge)
            session?.queue.priority = order.transactionId
        }
        return pumpVerifyQueue()
    }

    /// The sheet's Cancel came too late: Apple had taken the payment, which goes on in the background.
    mutating func cancelAnswered(_ transactionId: String, cancelled: Bool) -> [Effect] {
        guard !cancelled, device.purchase?.transactionId == transactionId, device.hud?.kind.isPaymentSheet == true else { return [] }
        device.hud = HUD(.backgrounded, productId: device.purchase?.productId, transactionId: transactionId)
        return [.readStoreQueue(after: 0)]
    }

    mutating func verified(_ sent: PendingOrder, _ outcome: VerifyOutcome) -> [Effect] {
        if device.verifying == sent.transactionId { device.verifying = nil }
        var order = sent
        var effects: [Effect] = []
        let shown = device.hud?.transactionId == order.transactionId
        // An offer code's month is followed from its redemption, when the HUD knew no product yet: it names it now.
        if shown, device.hud?.productId == nil { device.hud?.productId = order.productId }
        switch outcome {
        case .valid, .alreadyCredited:
            order.status = .verified
            effects = [.persist(order, closingIntent: nil), .finish(transactionId: order.transactionId, user: order.user)]
            // A free re-buy is a regular purchase (S7): "Purchase complete", as any purchase.
            if shown { device.hud?.kind = .success }
        case .creditedElsewhere:
            // Credited, to whom the backend keeps it with (A2): settled for this client, finished as any credit.
            order.status = .verified
            effects = [.persist(order, closingIntent: nil), .finish(transactionId: order.transactionId, user: order.user)]
            if shown { device.hud?.kind = .otherAccount }
            device.restore?.elsewhere.insert(order.transactionId)
        case .invalid:
            order.status = .rejected
            effects = [.persist(order, closingIntent: nil), .finish(transactionId: order.transactionId, user: order.user)]
            if shown { device.hud?.kind = .verifyFailed }
        case .retry, .kept:
            order.attempts += 1
            order.lastAttemptAt = now
            if order.attempts == policy.alarmThreshold, let reason = outcome.reason {
                raise(.verifyFailing(transactionId: order.transactionId, attempts: order.attempts, reason: reason))
            }
            if case .kept = outcome { session?.queue.keepPolling(order.transactionId) }
            if outcome == .receiptEmpty { raise(receiptEmptyAlarm(order), once: true) }
            effects = [.persist(order, closingIntent: nil)]
        case let .misconfigured(status):
            // Not finished (I4): the money was paid (I1). Retrying in a loop cannot fix a server's setup, so the order
            // waits for the next launch or login, and someone is told what to fix.
            order.attempts += 1
            order.lastAttemptAt = now
            session?.queue.hold(order.transactionId)
            let told = device.alarms.contains { if case .serverMisconfigured(_, status) = $0 { true } else { false } }
            if !told { raise(.serverMisconfigured(transactionId: order.transactionId, appleStatus: status)) }
            effects = [.persist(order, closingIntent: nil)]
            if shown { device.hud = HUD(.backgrounded, productId: order.productId, transactionId: order.transactionId) }
        }
        if outcome.reason == nil, device.purchase?.transactionId == order.transactionId { device.purchase = nil }
        if order.status != .pending { clearAlarms(about: order.transactionId) }
        if order.user == user { session?.keep(order) }
        return effects
    }

    /// Why the receipt had nothing for the order: another Apple ID than the one that paid is signed in (A1), or, with the
    /// one that paid, Apple's empty receipt (seed 002).
    private func receiptEmptyAlarm(_ order: PendingOrder) -> Alarm {
        guard let paidWith = order.appleId, let signedIn = device.appleId, paidWith != signedIn else {
            return .receiptEmpty(transactionId: order.transactionId)
        }
        return .receiptOfAnotherAppleId(transactionId: order.transactionId, paidWith: paidWith, signedIn: signedIn)
    }

    /// An order that got its verdict takes its verification alarms off the screen: what they warned of is over. The
    /// backend, told of them already or at its next chance, keeps them for support.
    private mutating func clearAlarms(about transactionId: String) {
        device.alarms.removeAll { alarm in
            switch alarm {
            case .receiptEmpty, .receiptOfAnotherAppleId, .verifyFailing, .serverMisconfigured: alarm.transactionId == transactionId
            default: false
            }
        }
    }

    mutating func finished(_ transactionId: String, owner: String?, found: Bool) -> [Effect] {
        if found {
            device.storeQueue[transactionId] = nil
            device.unclaimed.removeAll { $0.id == transactionId }
            restoreSawFinished(transactionId)
        }
        guard let owner else { return [] }
        if owner == user, orders[transactionId] != nil {
            guard found else { return [] }  // C5: stays flagged, finished when the store shows it again
            session?.drop(transactionId)
            return [.remove(transactionId: transactionId, user: owner), .refreshAccount(owner)] + readNextPageIfAnswered()
        }
        return found ? [.remove(transactionId: transactionId, user: owner)] : []
    }

    /// Launch, login, a new purchase, network back, foreground: every order gets its quick retries again.
    mutating func triggerVerifyQueue() -> [Effect] {
        session?.queue.trigger()
        return pumpVerifyQueue() + reportUnsentAlarms()
    }

    /// Starts the next verification when none is in flight, or sets a wake-up for the next one due.
    mutating func pumpVerifyQueue() -> [Effect] {
        // In the background iOS suspends the app: nothing runs until it comes back (a trigger).
        guard device.verifying == nil, var current = session, !faults.contains(.background) else { return [] }
        let next = current.queue.pump(current.orders, asked: current.prompts, policy: policy, now: now)
        session = current
        switch next {
        case let .verify(order):
            device.verifying = order.transactionId
            return [.verify(order)]
        case let .wake(date):
            guard device.wakeAt.map({ date < $0 }) ?? true else { return [] }
            device.wakeAt = date
            return [.wake(at: date)]
        case .idle:
            return []
        }
    }
}
