import Foundation
import IAPCore

/// The title bar, the badge line and the key-hint bar that frame every screen.
extension Canvas {
    mutating func drawTitleBar() {
        grid.fill(x: 0, y: 0, width: width, height: 1, style: theme.titleBar)
        grid.put(" " + Text.appTitle(lang), x: 0, y: 0, style: theme.titleBar, limit: width / 2)
        // The pending count is never cut (I6): a long name gives way instead.
        let who = "\(Text.user(lang)) ", count = " · \(Text.pending(lang)) \(state.pendingCount) "
        let room = max(width / 2 - displayWidth(who) - displayWidth(count), 1)
        let status = who + truncated(state.user ?? "—", to: room) + count
        grid.put(status, x: max(width - displayWidth(status), 0), y: 0, style: theme.titleBar)
    }

    /// Armed faults and alarms, so no state is silent (I6).
    mutating func drawBadges() {
        var x = 1
        let y = height - 2
        if state.faults.contains(.backendDown) {
            x += grid.put(" \(Text.backendDownBadge(lang)) ", x: x, y: y, style: theme.badge) + 1
        }
        for fault in state.faults where fault != .backendDown && x < width - 2 {
            x += grid.put(" \(state.faults.label(fault)) ", x: x, y: y, style: theme.badge, limit: width - x - 1) + 1
        }
        if let alarm = state.alarms.last {
            grid.put("\(Text.alarm(lang)): \(alarm.text(lang))", x: x, y: y, style: theme.bad, limit: width - x - 1)
        }
    }

    mutating func drawHintBar() {
        let y = height - 1
        var x = 1
        for binding in Keymap.hints(for: state.keyContext) {
            let label = binding.label
            let help = binding.hint?[lang] ?? ""
            let needed = displayWidth(label) + 1 + displayWidth(help) + 2
            guard x + needed <= width else { break }
            x += grid.put(label, x: x, y: y, style: theme.hintKey)
            x += grid.put(" " + help, x: x, y: y, style: theme.dimmed) + 2
        }
    }
}
