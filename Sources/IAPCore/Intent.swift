/// What a person asks the app to do, whichever key, script step or test said it: the core's vocabulary. The shell
/// (`Shell.swift`) turns keys into these, with what is on screen (which dialog, which row); the core carries them out.
public enum Intent: Sendable, Equatable {
    case logIn(String)
    /// Logging out with orders pending asks first (I6); `confirmed` is the answer "Log out anyway".
    case logOut(confirmed: Bool)
    case buy(productId: String)
    /// An offer code typed into StoreKit's redemption sheet.
    case redeemCode(String)
    /// The paywall shows this promotional offer for the product (nil: the regular price); buying it asks for the offer.
    case chooseOffer(productId: String, offerId: String?)
    /// Restore Purchases for the logged-in user (S8).
    case restorePurchases
    /// The launch prompt's answers (C8).
    case continueOrder(transactionId: String)
    case putOff(transactionId: String)
    /// Cancel on the payment sheet.
    case cancelPayment
    /// Esc on the HUD: an outcome goes away, a confirming order goes on in the background.
    case dismissHUD
    case toggleBackend
    case foreground
    case skipTime
    /// Support gives each unclaimed payment to the account Apple's records say paid.
    case assignUnclaimed
    /// Quitting while a purchase is in flight asks first; `confirmed` is the answer "y".
    case quit(confirmed: Bool)
    case crashNow
    case reinstall
    case startScenario(String)
    /// Support: Apple refunds the logged-in user's latest purchase.
    case refundLatest
    /// Support settles an order by hand on the backend (B5); the client finishes it at its next verification.
    case compensate(orderId: String)
    /// Settings › Subscriptions: turn the subscription's auto-renew off (cancel) or on (resubscribe).
    case setAutoRenew(originalTransactionId: String, on: Bool)
    /// Settings › Subscriptions (or StoreKit's price consent sheet): the user agrees to the subscription's new price.
    case agreeToPriceIncrease(originalTransactionId: String)
    /// Settings › App Store: another Apple ID signs in on the device, also mid-purchase (A1).
    case signInAppleId(String)
}

extension AppState {
    /// The one place an intent changes the app.
    mutating func perform(_ intent: Intent) -> [Effect] {
        switch intent {
        case let .logIn(name):
            guard user == nil else { return [] }
            return logIn(name)
        case let .logOut(confirmed):
            guard user != nil else { return [] }
            if pendingCount > 0, !confirmed {
                modal = .logoutWarning(choice: 0)
                return []
            }
            return logOut()
        case let .buy(productId):
            return buy(productId)
        case let .chooseOffer(productId, offerId):
            return chooseOffer(productId, offerId)
        case let .redeemCode(code):
            // The sheet is Apple's: it pays with the device's Apple ID, and what it brings reaches the observer.
            guard let buyer = user, !code.trimmingCharacters(in: .whitespaces).isEmpty else { return [] }
            modal = nil
            return [.redeemCode(code, account: device.appleId ?? buyer)]
        case .restorePurchases:
            return restorePurchases()
        case let .continueOrder(id):
            return continueOrder(id)
        case let .putOff(id):
            return putOff(id)
        case .cancelPayment:
            return cancelPayment()
        case .dismissHUD:
            dismissHUD()
            return []
        case .toggleBackend:
            return setFault(.backendDown, faults.contains(.backendDown) ? nil : FaultArm())
        case .foreground:
            return foreground()
        case .skipTime:
            return [.skipTime]
        case .assignUnclaimed:
            // Support reads Apple's records of the Apple ID and the app's orders (the host asks both) and ties each payment
            // to whom they name.
            return device.unclaimed.isEmpty ? [] : [.lookUpPayers(device.unclaimed.map(\.id))]
        case let .quit(confirmed):
            if !confirmed, purchaseInFlight {
                modal = .quitConfirm
                return []
            }
            quitting = true
            return [.quit]
        case .crashNow:
            return [.crash(reason: Localized(en: "crash now, from the fault panel", zh: "故障面板的“立即崩溃”"))]
        case .reinstall:
            modal = nil
            return [.reinstall]
        case let .startScenario(name):
            modal = nil
            return [.startScenario(name)]
        case .refundLatest:
            guard let user else { return [] }
            return [.refund(account: user), .refreshAccount(user)]
        case let .compensate(orderId):
            if case .compensateConfirm = modal { modal = .inspector }
            return [.compensate(orderId: orderId)] + triggerVerifyQueue()
        case let .setAutoRenew(original, on):
            guard let user, session?.subscriptions.contains(where: { $0.originalTransactionId == original }) == true else { return [] }
            return [.setAutoRenew(on, originalTransactionId: original), .refreshAccount(user)]
        case let .agreeToPriceIncrease(original):
            guard let user, session?.subscriptions.contains(where: { $0.originalTransactionId == original && $0.priceIncrease == .pending }) == true
            else { return [] }
            return [.agreeToPriceIncrease(originalTransactionId: original), .refreshAccount(user)]
        case let .signInAppleId(name):
            return name == device.appleId ? [] : [.signInAppleId(name)]
        }
    }

    private mutating func continueOrder(_ id: String) -> [Effect] {
        modal = nil
        session?.prompts.removeAll { $0 == id }
        session?.queue.continueNow(id)
        device.hud = HUD(.confirming, productId: orders[id]?.productId, transactionId: id)
        return pumpVerifyQueue() + readNextPageIfAnswered()
    }

    private mutating func putOff(_ id: String) -> [Effect] {
        modal = nil
        session?.prompts.removeAll { $0 == id }
        session?.queue.putOff(id)
        showNextPrompt()
        return pumpVerifyQueue() + readNextPageIfAnswered()
    }

    /// The payment sheet's Cancel; before the store has a transaction there is nothing to cancel.
    private mutating func cancelPayment() -> [Effect] {
        guard let shown = device.hud, shown.kind.isPaymentSheet else { return [] }
        guard let id = device.purchase?.transactionId else {
            device.purchase = nil
            device.hud = HUD(.cancelled, productId: shown.productId)
            return []
        }
        return [.cancelPayment(transactionId: id)]
    }

    /// A confirming order stays pending in the background; an outcome is just dismissed.
    private mutating func dismissHUD() {
        guard let shown = device.hud, !shown.kind.isPaymentSheet else { return }
        device.hud = nil
        if shown.kind == .confirming { device.purchase = nil }
        showNextPrompt()
    }
}
