import Foundation

/// The shell: a key, through the keymap's one table, either changes only what is on screen (a dialog, a list's row,
/// the login text, the language) or becomes an `Intent` the core carries out.
extension AppState {
    mutating func handle(_ key: Key) -> [Effect] {
        let context = keyContext
        guard let command = Keymap.command(for: key, in: context) else {
            // A space before the name is none of it (names have spaces only inside): it would take a character of its 24.
            if context == .login || context == .loginEmpty, case let .char(c) = key, UserName.allows(c), !(c == " " && loginText.isEmpty) {
                loginRefused = loginText.count >= UserName.maximumLength
                if !loginRefused { loginText.append(c) }
            }
            if case let .redeemCode(text) = modal, case let .char(c) = key, c.isLetter || c.isNumber || c == " ", text.count < Self.longestOfferCode {
                modal = .redeemCode(text: text + String(c))
            }
            return []
        }
        // A list panel moves and answers its own keys; any panel's key opens it.
        if let (panel, selection) = ListPanels.shown(in: modal), let effects = panel.handle(command, at: selection, in: &self) { return effects }
        if let panel = ListPanels.opened(by: command) { return panel.open(&self) }
        switch command {
        case .pageUp where context == .help:
            turnHelpPage(by: -1)
        case .pageDown where context == .help:
            turnHelpPage(by: 1)
        case .pageUp where context == .explain:
            turnExplanationPage(by: -1)
        case .pageDown where context == .explain:
            turnExplanationPage(by: 1)
        case .pageUp where context == .inspector:
            timelinePagesBack += 1
        case .pageDown where context == .inspector:
            timelinePagesBack = max(timelinePagesBack - 1, 0)
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
        case .assignUnclaimed:
            return perform(.assignUnclaimed)
        case .refund:
            return perform(.refundLatest)
        case .compensate:
            guard let order = compensableOrder, let orderId = order.orderId else { return [] }
            modal = .compensateConfirm(orderId: orderId, transactionId: order.transactionId)

        case .inspector:
            if modal == .inspector { return closeOverlay() }
            modal = .inspector
            timelinePagesBack = 0
        case .language:
            lang = lang.next
        case .explain:
            if case let .explain(_, under, _) = modal {
                modal = under
            } else {
                modal = .explain(stateId: visibleStateId, under: modal)
            }
        case .erase:
            if case let .redeemCode(text) = modal { modal = .redeemCode(text: String(text.dropLast())) }
            if !loginText.isEmpty { loginText.removeLast() }
            loginRefused = false
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
            if case let .help(_, under) = modal { return close(to: under) }
            // The launch prompt comes back by itself when overlays close; anything else is given back by name.
            if case .unfinished = modal { modal = nil }
            modal = .help(page: 0, under: modal)
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
        case .chooseOffer:
            return nextOffer()
        case .skipTime:
            return perform(.skipTime)
        case .foreground:
            return perform(.foreground)
        case .toggleBackend:
            return perform(.toggleBackend)
        default:
            break  // a panel's own key outside it
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
        case let .redeemCode(text):
            return perform(.redeemCode(text))
        default:
            break
        }
        guard user != nil else {
            guard let name = try? UserName.normalized(loginText) else {
                loginRefused = true
                return []
            }
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
        case let .help(_, under):
            return close(to: under)
        case .quitConfirm, .logoutWarning, .faultPanel, .scenarios, .inspector, .stateCatalog, .subscriptions, .panel, .redeemCode:
            return closeOverlay()
        case let .explain(_, under, _):
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

    /// How many pages there are only the renderer knows (the screen wraps the text): it counts them round.
    private mutating func turnExplanationPage(by step: Int) {
        if case let .explain(id, under, page) = modal { modal = .explain(stateId: id, under: under, page: page + step) }
    }

    private mutating func turnHelpPage(by step: Int) {
        if case let .help(page, under) = modal { modal = .help(page: page + step, under: under) }
    }

    /// Back to the panel or dialog a help page was opened over, or out of every overlay.
    private mutating func close(to under: Modal?) -> [Effect] {
        guard let under else { return closeOverlay() }
        modal = under
        return []
    }

    /// An overlay opened over a prompt gives the prompt back when it closes.
    /// Back in the shop: a product list that failed or came back empty is asked for again (seed 004, S3).
    /// App Store Connect's custom codes are at most 64 characters.
    static let longestOfferCode = 64

    mutating func closeOverlay() -> [Effect] {
        modal = nil
        showNextPrompt()
        return user == nil ? [] : askProductsAgain()
    }
}
