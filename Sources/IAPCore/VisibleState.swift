/// Every state the app can put on screen, by id, in the order support browses them (`E`). The screens explain
/// each one (their `StateCatalog`, in this order); a test fails when an id has no explanation or an explanation no id.
public enum VisibleState {
    /// Panels registered since these were written come last, in the order `ListPanels` registers them.
    public static let ids: [String] = own + ListPanels.all.map(\.stateId).filter { !own.contains($0) }

    private static let own: [String] = [
        "login", "products", "products-pending", "loading", "no-products", "products-failed", "hud-purchasing", "hud-already-owned", "hud-already-subscribed", "hud-offer-refused", "hud-code-redeemed",
        "hud-backgrounded", "hud-confirming", "hud-confirming-retry", "hud-success", "hud-restoring", "hud-restored",
        "hud-nothing-to-restore", "hud-restore-failed", "hud-failed",
        "hud-cancelled", "hud-deferred", "hud-plan-changed", "hud-other-account", "hud-other-account-subscription", "hud-apple-id-changed", "family-shared",
        "hud-family-revoked", "hud-disabled", "hud-verify-failed", "hud-jailbroken",
        "sub-trial", "sub-active", "sub-cancelled", "sub-grace-period", "sub-billing-retry", "sub-expired", "sub-revoked", "subscriptions",
        "prompt-unfinished", "logout-warning", "quit-confirm", "backend-down", "fault-badges", "alarm", "unattributed", "credit-missing", "too-small",
        "help", "fault-panel", "scenarios", "inspector", "compensate-confirm", "state-catalog", "redeem-sheet"
    ]
}

extension AppState {
    /// The id of what the user is looking at right now (the innermost thing on screen).
    public var visibleStateId: String {
        switch modal {
        case .help: return "help"
        case .quitConfirm: return "quit-confirm"
        case .unfinished: return "prompt-unfinished"
        case .logoutWarning: return "logout-warning"
        case .inspector: return "inspector"
        case .compensateConfirm: return "compensate-confirm"
        case .redeemCode: return "redeem-sheet"
        case .explain: return "state-catalog"
        case .faultPanel, .scenarios, .stateCatalog, .subscriptions, .panel:
            if let (panel, _) = ListPanels.shown(in: modal) { return panel.stateId }
        case nil: break
        }
        if let hud {
            if hud.kind == .confirming, let id = hud.transactionId, (orders[id]?.attempts ?? 0) > 0 { return "hud-confirming-retry" }
            if isAnotherAccountsSubscription(hud) { return "hud-other-account-subscription" }
            return "hud-" + hud.kind.catalogName
        }
        guard user != nil else { return "login" }
        if alarms.contains(where: { if case .unattributed = $0 { true } else { false } }) { return "unattributed" }
        if case .creditMissing? = alarms.last { return "credit-missing" }
        if !alarms.isEmpty { return "alarm" }
        switch productsStatus {
        case .loading: return "loading"
        case .empty: return "no-products"
        case .failed: return "products-failed"
        case .loaded: break
        }
        if faults.contains(.backendDown) { return "backend-down" }
        if !faults.isEmpty { return "fault-badges" }
        if pendingCount > 0 { return "products-pending" }
        // The highlighted subscription's status line is what the user asks about.
        if let status = selectedSubscription { return "sub-" + status.state.rawValue }
        if let product = selectedProduct, account.familyShared.contains(product.id) { return "family-shared" }
        return "products"
    }

    /// A purchase credited to another app account of the Apple ID: an auto-renewable subscription's upgrade or
    /// resubscription continues the one subscription the Apple ID has in its group, held by that account. Apple charges
    /// for it, unless it starts a free period or a code's. (Buying again what the Apple ID owns, or restoring, charges
    /// nothing.)
    public func isAnotherAccountsSubscription(_ hud: HUD) -> Bool {
        hud.kind == .otherAccount && hud.productId.flatMap(product)?.kind == .subscription
    }

    /// A plan change of the Apple ID's subscription that another app user holds: the logged-in user holds nothing of
    /// the group and has no credit in it (a lapse in billing retry is still theirs), so what it renews is not theirs.
    public func isAnotherAccountsPlanChange(_ hud: HUD) -> Bool {
        guard hud.kind == .planChanged, let group = hud.productId.flatMap(product)?.subscription?.group else { return false }
        return !account.subscribedGroups.contains(group)
            && !products.contains { $0.subscription?.group == group && account.owned.contains($0.id) }
    }

    /// What the Apple ID paid for the purchase the HUD shows, as far as the app knows.
    public enum AppleIdCharge: Sendable, Equatable {
        case charged, freePeriod
        /// An offer code's: the code says what it costs, and the app is not told.
        case codeRedeemed
    }

    public func appleIdCharge(_ hud: HUD) -> AppleIdCharge {
        if hud.charge?.redeemed == true { return .codeRedeemed }
        let terms = hud.productId.flatMap(product)?.subscription
        let offer = hud.charge?.offerId.flatMap { terms?.offer(named: $0)?.terms } ?? hud.charge?.intro
        return offer?.mode == .freeTrial ? .freePeriod : .charged
    }
}

extension HUD.Kind {
    public var catalogName: String {
        switch self {
        case .purchasing: "purchasing"
        case .alreadyOwned: "already-owned"
        case .backgrounded: "backgrounded"
        case .confirming: "confirming"
        case .success: "success"
        case .restoring: "restoring"
        case .restored: "restored"
        case .nothingToRestore: "nothing-to-restore"
        case .restoreFailed: "restore-failed"
        case .failed: "failed"
        case .cancelled: "cancelled"
        case .deferred: "deferred"
        case .disabled: "disabled"
        case .verifyFailed: "verify-failed"
        case .jailbroken: "jailbroken"
        case .planChanged: "plan-changed"
        case .appleIdChanged: "apple-id-changed"
        case .otherAccount: "other-account"
        case .familyRevoked: "family-revoked"
        case .alreadySubscribed: "already-subscribed"
        case .offerRefused: "offer-refused"
        case .codeRedeemed: "code-redeemed"
        }
    }
}
