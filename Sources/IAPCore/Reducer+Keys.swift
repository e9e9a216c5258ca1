import Foundation

extension KeyContext {
    /// An overlay that is a list to move in.
    var isList: Bool { self == .panel || self == .scenarioList || self == .stateBrowser }
}

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
        case .up where context.isList:
            movePanel(by: -1)
        case .down where context.isList:
            movePanel(by: 1)
        case .pageUp where context.isList, .pageDown where context.isList, .first where context.isList, .last where context.isList:
            jumpPanel(command)
        case .pageUp:
            selection = max(selection - Keymap.page, 0)
        case .pageDown:
            selection = min(selection + Keymap.page, max(products.count - 1, 0))
        case .first:
            selection = 0
        case .last:
            selection = max(products.count - 1, 0)
        case .up:
            selection = max(selection - 1, 0)
        case .down:
            selection = min(selection + 1, max(products.count - 1, 0))
        case .choose where context.isList:
            return choosePanel(once: false)
        case .assignUnclaimed:
            // Support reads who paid from Apple's records (the host asks the store) and ties each payment to them.
            return unclaimed.isEmpty ? [] : [.lookUpPayers(unclaimed.map(\.id))]
        case .armOnce:
            guard case .faultPanel = modal else { return [] }
            return choosePanel(once: true)
        case .faultPanel:
            if case .faultPanel = modal { closeOverlay() } else { modal = .faultPanel(selection: 0) }
        case .scenarios:
            modal = .scenarios(selection: 0)
            return scenarios.isEmpty ? [.listScenarios] : []
        case .inspector:
            if modal == .inspector { closeOverlay() } else { modal = .inspector }
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
            if modal == .help { closeOverlay() } else { modal = .help }
        case .quit:
            if purchase != nil || hud?.kind.isWaiting == true {
                modal = .quitConfirm
            } else {
                quitting = true
                return [.quit]
            }
        case .confirmQuit:
            quitting = true
            return [.quit]
        case .logout:
            if pendingCount > 0 { modal = .logoutWarning(choice: 0) } else { return logOut() }
        case .skipTime:
            return [.skipTime]
        case .foreground:
            return foreground()
        case .toggleBackend:
            return setFault(.backendDown, faults.contains(.backendDown) ? nil : FaultArm())
        }
        return []
    }

    private mutating func choose() -> [Effect] {
        switch modal {
        case let .unfinished(id, choice):
            return choice == 0 ? continueOrder(id) : putOff(id)
        case let .logoutWarning(choice):
            modal = nil
            return choice == 1 ? logOut() : []
        default:
            break
        }
        if user == nil {
            guard let name = try? UserName.normalized(loginText) else { return [] }
            return logIn(name)
        }
        return buySelected()
    }

    private mutating func back() -> [Effect] {
        switch modal {
        case let .unfinished(id, _):
            return putOff(id)
        case .help, .quitConfirm, .logoutWarning, .faultPanel, .scenarios, .inspector, .stateCatalog:
            closeOverlay()
            return []
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
        guard let shown = hud else { return [] }
        if shown.kind.isPaymentSheet {
            // The payment sheet's Cancel; before the store has a transaction there is nothing to cancel.
            guard let id = purchase?.transactionId else {
                purchase = nil
                hud = HUD(.cancelled, productId: shown.productId)
                return []
            }
            return [.cancelPayment(transactionId: id)]
        }
        // A confirming order stays pending in the background; an outcome is just dismissed.
        hud = nil
        if shown.kind == .confirming { purchase = nil }
        showNextPrompt()
        return []
    }

    /// An overlay opened over a prompt gives the prompt back when it closes.
    private mutating func closeOverlay() {
        modal = nil
        showNextPrompt()
    }

    private mutating func continueOrder(_ id: String) -> [Effect] {
        modal = nil
        session?.prompts.removeAll { $0 == id }
        session?.queue.continueNow(id)
        hud = HUD(.confirming, productId: orders[id]?.productId, transactionId: id)
        return pumpVerifyQueue() + readNextPageIfAnswered()
    }

    private mutating func putOff(_ id: String) -> [Effect] {
        modal = nil
        session?.prompts.removeAll { $0 == id }
        session?.queue.putOff(id)
        showNextPrompt()
        return pumpVerifyQueue() + readNextPageIfAnswered()
    }
}
