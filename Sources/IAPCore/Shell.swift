import Foundation

extension KeyContext {
    /// An overlay that is a list to move in.
    var isList: Bool { self == .panel || self == .scenarioList || self == .stateBrowser || self == .subscriptionList }
}

/// The shell: a key, through the keymap's one table, either changes only what is on screen (a dialog, a list's row,
/// the login text, the language) or becomes an `Intent` the core carries out.
extension AppState {
    mutating func handle(_ key: Key) -> [Effect] {
        let context = keyContext
        guard let command = Keymap.command(for: key, in: context) else {
            if context == .login || context == .loginEmpty, case let .char(c) = key, UserName.allows(c) {
                if loginText.count < UserName.maximumLength { loginText.append(c) }
            }
            return []
        }
        switch command {
        case .pageUp where context == .help:
            turnHelpPage(by: -1)
        case .pageDown where context == .help:
            turnHelpPage(by: 1)
        case .up where context.isList:
            movePanel(by: -1)
        case .down where context.isList:
            movePanel(by: 1)
        case .pageUp where context.isList, .pageDown where context.isList, .first where context.isList, .last where context.isList:
            jumpPanel(command)
        case .pageUp:
            selection = max(selection - Keymap.page, 0)
        case .pageDown:
            selection = min(selection + Keymap.page, max(shopIdentifiers.count - 1, 0))
        case .first:
            selection = 0
        case .last:
            selection = max(shopIdentifiers.count - 1, 0)
        case .up:
            selection = max(selection - 1, 0)
        case .down:
            selection = min(selection + 1, max(shopIdentifiers.count - 1, 0))
        case .choose where context.isList:
            return choosePanel(once: false)
        case .assignUnclaimed:
            return perform(.assignUnclaimed)
        case .refund:
            return perform(.refundLatest)
        case .compensate:
            guard let order = compensableOrder, let orderId = order.orderId else { return [] }
            modal = .compensateConfirm(orderId: orderId, transactionId: order.transactionId)

        case .toggleAutoRenew:
            return choosePanel(once: false)
        case .manageSubscriptions:
            if case .subscriptions = modal {
                return closeOverlay()
            } else {
                modal = .subscriptions(selection: 0)
                return user.map { [.refreshAccount($0)] } ?? []
            }
        case .armOnce:
            guard case .faultPanel = modal else { return [] }
            return choosePanel(once: true)
        case .faultPanel:
            if case .faultPanel = modal { return closeOverlay() }
            modal = .faultPanel(selection: 0)
        case .scenarios:
            modal = .scenarios(selection: 0)
            return scenarios.isEmpty ? [.listScenarios] : []
        case .inspector:
            if modal == .inspector { return closeOverlay() }
            modal = .inspector
        case .language:
            lang = lang.next
        case .explain:
            if case let .explain(_, under) = modal {
                modal = under
            } else if case let .stateCatalog(selection) = modal, VisibleState.ids.indices.contains(selection) {
                modal = .explain(stateId: VisibleState.ids[selection], under: modal)  // the state under the cursor
            } else {
                modal = .explain(stateId: visibleStateId, under: modal)
            }
        case .stateCatalog:
            let current = VisibleState.ids.firstIndex(of: visibleStateId) ?? 0
            modal = .stateCatalog(selection: current)
        case .erase:
            if !loginText.isEmpty { loginText.removeLast() }
        case .choose:
            return choose()
        case .otherChoice:
            switch modal {
            case let .unfinished(id, choice): modal = .unfinished(transactionId: id, choice: 1 - choice)
            case let .logoutWarning(choice): modal = .logoutWarning(choice: 1 - choice)
            default: break
            }
        case .back:
            return back()
        case .help:
            if case .help = modal { return closeOverlay() }
            modal = .help(page: 0)
        case .quit:
            return perform(.quit(confirmed: false))
        case .confirm:
            // y answers the question on screen.
            if case let .compensateConfirm(orderId, _) = modal { return perform(.compensate(orderId: orderId)) }
            return perform(.quit(confirmed: true))
        case .logout:
            return perform(.logOut(confirmed: false))
        case .restore:
            return perform(.restorePurchases)
        case .skipTime:
            return perform(.skipTime)
        case .foreground:
            return perform(.foreground)
        case .toggleBackend:
            return perform(.toggleBackend)
        }
        return []
    }

    private mutating func choose() -> [Effect] {
        switch modal {
        case let .unfinished(id, choice):
            return perform(choice == 0 ? .continueOrder(transactionId: id) : .putOff(transactionId: id))
        case let .logoutWarning(choice):
            modal = nil
            return choice == 1 ? perform(.logOut(confirmed: true)) : []
        default:
            break
        }
        guard user != nil else {
            guard let name = try? UserName.normalized(loginText) else { return [] }
            return perform(.logIn(name))
        }
        let listed = shopIdentifiers
        return listed.indices.contains(selection) ? perform(.buy(productId: listed[selection])) : []
    }

    private mutating func back() -> [Effect] {
        switch modal {
        case let .unfinished(id, _):
            return perform(.putOff(transactionId: id))
        case .compensateConfirm:
            modal = .inspector
            return []
        case .help, .quitConfirm, .logoutWarning, .faultPanel, .scenarios, .inspector, .stateCatalog, .subscriptions:
            return closeOverlay()
        case let .explain(_, under):
            modal = under
            return []
        case nil:
            break
        }
        if user == nil {
            loginText = ""
            return []
        }
        guard let shown = device.hud else { return [] }
        return perform(shown.kind.isPaymentSheet ? .cancelPayment : .dismissHUD)
    }

    private mutating func turnHelpPage(by step: Int) {
        if case let .help(page) = modal { modal = .help(page: page + step) }
    }

    /// An overlay opened over a prompt gives the prompt back when it closes.
    /// Back in the shop: a product list that failed or came back empty is asked for again (seed 004, S3).
    private mutating func closeOverlay() -> [Effect] {
        modal = nil
        showNextPrompt()
        return user == nil ? [] : askProductsAgain()
    }
}
