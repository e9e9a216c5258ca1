import IAPCore

/// Prompts that take the keys until answered, and the help overlay.
extension StateView {
    func unfinishedPrompt(transactionId: String, choice: Int) -> UnfinishedPrompt {
        let order = state.orders[transactionId]
        return UnfinishedPrompt(title: Text.unfinished(lang), product: orderLine(order),
                                reference: "\(Text.orderOf(lang)) \(order?.orderId ?? "—") · tx \(transactionId)",
                                policy: state.serialPurchases ? Text.serialPolicy(lang) : nil,
                                buttons: [Text.continueAction(lang), Text.later(lang)], focused: choice, theme: theme)
    }

    func logoutWarning(choice: Int) -> LogoutWarning {
        // Oldest first, as bought: the page is in retry order, which each retry reshuffles under the reader's eyes.
        let orders = state.pendingOrders.sorted { ($0.purchasedAt, $0.transactionId) < ($1.purchasedAt, $1.transactionId) }
        return LogoutWarning(question: Text.logoutPending(lang),
                             orders: orders.prefix(LogoutWarning.most).map { orderLine($0) + " · tx \($0.transactionId)" },
                             total: state.pendingCount, buttons: [Text.stay(lang), Text.logoutAnyway(lang)], focused: choice, theme: theme)
    }

    /// Over the HUD it asks about, the same size.
    func quitConfirm(over area: Rect) -> QuitConfirm {
        QuitConfirm(question: state.purchaseInFlight ? Text.quitInFlight(lang) : Text.quitNothingInFlight(lang), answers: "\(Text.yesQuit(lang))   \(Text.noStay(lang))",
                    covering: hud?.size(in: area), theme: theme)
    }

    /// Support's question before compensating an order by hand (B5), over the inspector.
    func compensateConfirm(orderId: String, transactionId: String) -> QuitConfirm {
        QuitConfirm(question: Text.compensateAsk(lang).replacingOccurrences(of: "{order}", with: orderId)
                        .replacingOccurrences(of: "{tx}", with: transactionId),
                    answers: "\(Text.yesCompensate(lang))   \(Text.noStay(lang))", covering: (width: 60, height: 3), theme: theme)
    }

    /// StoreKit's offer code redemption sheet: the code typed so far.
    func redeemSheet(_ text: String) -> LoginBox {
        LoginBox(prompt: Text.offerCodePrompt(lang), text: text, hint: Text.offerCodeHint(lang), hintStyle: theme.dimmed, theme: theme)
    }

    /// Every binding of the keymap, under the section of where it works; two that read alike (← and → of one pair) on
    /// one line.
    func help(page: Int) -> HelpOverlay {
        let sections = HelpSection.allCases.map { section in
            let keys = Keymap.bindings.filter { HelpSection($0.command) == section }.map { ($0.label, $0.help[lang]) }
            return HelpOverlay.Section(title: section.title[lang], keys: keys.enumerated().filter { $0.offset == 0 || keys[$0.offset - 1] != $0.element }.map(\.element))
        }
        return HelpOverlay(title: Text.helpTitle(lang), sections: sections, page: page, close: Text.helpClose(lang), turn: Text.helpTurn(lang),
                           theme: theme)
    }
}
