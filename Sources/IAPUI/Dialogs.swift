import Foundation
import IAPCore

/// Prompts that take the keys until answered, and the help overlay.
extension Canvas {
    mutating func drawUnfinishedPrompt(transactionId: String, choice: Int) {
        let inner = 46
        let order = state.orders[transactionId]
        // Under the serial policy (C9) this prompt is also what a new purchase gets: it says why.
        let serial = state.serialPurchases
        let origin = centredFrame(innerWidth: inner, innerHeight: serial ? 7 : 6, title: Text.unfinished(lang))
        centred(productLine(order?.productId), x: origin.x, y: origin.y + 1, width: inner, style: theme.heading)
        let ref = "\(Text.orderOf(lang)) \(order?.orderId ?? "—") · tx \(transactionId)"
        centred(ref, x: origin.x, y: origin.y + 2, width: inner, style: theme.dimmed)
        if serial { centred(Text.serialPolicy(lang), x: origin.x, y: origin.y + 3, width: inner, style: theme.dimmed) }
        drawButtons([Text.continueAction(lang), Text.later(lang)], focused: choice, x: origin.x, y: origin.y + (serial ? 5 : 4), width: inner)
    }

    mutating func drawLogoutWarning(choice: Int) {
        let inner = 50
        let orders = state.pendingOrders
        let shown = orders.prefix(4)
        let origin = centredFrame(innerWidth: inner, innerHeight: 5 + shown.count + (orders.count > shown.count ? 1 : 0))
        centred(Text.logoutPending(lang), x: origin.x, y: origin.y, width: inner, style: theme.heading)
        var y = origin.y + 2
        for order in shown {
            grid.put("• " + productLine(order.productId) + " · tx \(order.transactionId)", x: origin.x, y: y, style: theme.plain, limit: inner)
            y += 1
        }
        if orders.count > shown.count {
            grid.put("  +\(orders.count - shown.count)", x: origin.x, y: y, style: theme.dimmed)
            y += 1
        }
        drawButtons([Text.stay(lang), Text.logoutAnyway(lang)], focused: choice, x: origin.x, y: y + 1, width: inner)
    }

    /// Over the HUD it asks about, the same size, so that no edge of the HUD peeks out a row off.
    mutating func drawQuitConfirm() {
        let size = state.hud.map(hudSize) ?? (width: 44, height: 3)
        let inner = max(size.width, 44)
        let origin = centredFrame(innerWidth: inner, innerHeight: size.height)
        let top = origin.y + (size.height - 3) / 2
        centred(Text.quitInFlight(lang), x: origin.x, y: top, width: inner, style: theme.heading)
        centred("\(Text.yesQuit(lang))   \(Text.noStay(lang))", x: origin.x, y: top + 2, width: inner, style: theme.dimmed)
    }

    /// Every key, in two columns so that the whole keymap fits the smallest screen.
    mutating func drawHelp() {
        let inner = min(width - 6, 100)
        let rows = Keymap.bindings
        let perColumn = (rows.count + 1) / 2
        let column = inner / 2
        let origin = centredFrame(innerWidth: inner, innerHeight: perColumn + 2, title: Text.helpTitle(lang))
        let labelWidth = (rows.map { displayWidth($0.label) }.max() ?? 5) + 1
        for (i, binding) in rows.enumerated() {
            let x = origin.x + (i / perColumn) * column, y = origin.y + i % perColumn
            grid.put(binding.label, x: x, y: y, style: theme.hintKey)
            grid.put(binding.help[lang], x: x + labelWidth, y: y, style: theme.plain, limit: column - labelWidth - 1)
        }
        grid.put(Text.helpClose(lang), x: origin.x, y: origin.y + perColumn + 1, style: theme.dimmed)
    }

    private mutating func drawButtons(_ labels: [String], focused: Int, x: Int, y: Int, width w: Int) {
        let rendered = labels.map { "[ \($0) ]" }
        let total = rendered.reduce(0) { $0 + displayWidth($1) } + 4 * (rendered.count - 1)
        var column = x + max((w - total) / 2, 0)
        for (i, label) in rendered.enumerated() {
            column += grid.put(label, x: column, y: y, style: i == focused ? theme.focusedButton : theme.button) + 4
        }
    }
}
