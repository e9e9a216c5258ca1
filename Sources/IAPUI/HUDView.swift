import Foundation
import IAPCore

/// The heads-up display: one wait or one outcome, centred over the list.
extension Canvas {
    mutating func drawLoading() {
        let origin = centredFrame(innerWidth: 36, innerHeight: 3)
        centred(Text.loading(lang), x: origin.x, y: origin.y + 1, width: 36, style: theme.waiting)
    }

    /// The HUD's inner size: what a dialog over it (the quit question) takes to cover it exactly.
    func hudSize(_ hud: HUD) -> (width: Int, height: Int) {
        let lines = detailLines(for: hud)
        // Canonical strings are never cut: the HUD grows to fit them (up to the screen).
        let widest = ([headline(hud.kind), footer(hud.kind)] + lines).map(displayWidth).max() ?? 0
        return (min(max(44, widest + 4), width - 4), 4 + lines.count)
    }

    mutating func drawHUD(_ hud: HUD) {
        let lines = detailLines(for: hud)
        let inner = hudSize(hud).width
        let origin = centredFrame(innerWidth: inner, innerHeight: 4 + lines.count, style: frameStyle(hud.kind))
        centred(headline(hud.kind), x: origin.x, y: origin.y + 1, width: inner, style: textStyle(hud.kind))
        for (i, line) in lines.enumerated() {
            centred(line, x: origin.x, y: origin.y + 2 + i, width: inner, style: theme.plain)
        }
        centred(footer(hud.kind), x: origin.x, y: origin.y + 3 + lines.count, width: inner, style: theme.dimmed)
    }

    private func headline(_ kind: HUD.Kind) -> String {
        switch kind {
        case .success: "✓ " + kind.text(lang)
        case .restored: "✓ " + kind.text(lang).replacingOccurrences(of: "{n}", with: "1")
        case .failed, .verifyFailed, .disabled, .jailbroken: "✗ " + kind.text(lang)
        default: kind.text(lang)
        }
    }

    private func detailLines(for hud: HUD) -> [String] {
        // A restore costs nothing: the product without a price.
        var lines = [hud.kind == .alreadyOwned || hud.kind == .restored ? productTitle(hud.productId) : productLine(hud.productId)]
        switch hud.kind {
        case .confirming:
            if let id = hud.transactionId, let order = state.orders[id], order.attempts > 0 {
                var retry = "\(Text.retryCount(lang)) \(order.attempts)"
                if let next = state.nextAttempt(for: order), next > state.now {
                    retry += " · \(Text.nextRetry(lang)) \(Int(next.timeIntervalSince(state.now).rounded(.up)))s"
                }
                lines.append(retry)
            }
        case .success:
            lines.append("\(Text.balance(lang)) \(state.account.coins) \(Text.coins(lang))")
        default:
            break
        }
        return lines
    }

    private func footer(_ kind: HUD.Kind) -> String {
        switch kind {
        case .purchasing, .alreadyOwned: Text.escCancel(lang)
        case .confirming: Text.inBackground(lang)
        default: Text.escClose(lang)
        }
    }

    private func textStyle(_ kind: HUD.Kind) -> Style {
        switch kind {
        case .purchasing, .alreadyOwned, .confirming, .deferred, .backgrounded: theme.waiting
        case .success, .restored: theme.good
        case .failed, .cancelled, .disabled, .verifyFailed, .jailbroken: theme.bad
        }
    }

    private func frameStyle(_ kind: HUD.Kind) -> Style {
        switch kind {
        case .success, .restored: theme.good
        case .failed, .verifyFailed, .disabled, .jailbroken: theme.bad
        default: theme.frame
        }
    }
}
