import Foundation
import IAPCore

/// What the inspector shows beside the app's own state: the parties' records, read by the host.
public struct InspectorView: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public let at: Date
        public let text: String

        public init(at: Date, text: String) {
            self.at = at
            self.text = text
        }
    }

    /// The store's unfinished queue (first few), and how many it holds.
    public var storeQueue: [StoreTransaction] = []
    public var storeTotal = 0
    /// The user's latest credits on the backend, and how many there are.
    public var credits: [(transactionId: String, productId: String, coins: Int)] = []
    public var creditTotal = 0
    /// Newest last.
    public var timeline: [Entry] = []

    public init() {}

    public static func == (a: InspectorView, b: InspectorView) -> Bool {
        a.storeQueue == b.storeQueue && a.storeTotal == b.storeTotal && a.creditTotal == b.creditTotal
            && a.credits.map(\.transactionId) == b.credits.map(\.transactionId) && a.timeline == b.timeline
    }
}

/// The fault panel, the scenario list and the inspector.
extension Canvas {
    mutating func drawFaultPanel(selection: Int) {
        let rows = FaultPanelRow.all
        let inner = min(width - 6, 96)
        let visible = max(min(rows.count, height - 8), 3)
        let origin = centredFrame(innerWidth: inner, innerHeight: visible + 2, title: Text.faultPanel(lang))
        let first = min(max(selection - visible / 2, 0), rows.count - visible)
        for (offset, row) in rows[first..<first + visible].enumerated() {
            let index = first + offset
            let y = origin.y + offset
            // ▸ marks the cursor; x armed, 1 armed one-shot, · an app event.
            var status = "·"
            var label = row.label
            if case let .fault(fault) = row {
                status = state.faults.contains(fault) ? (state.faults.arm(fault)?.once == true ? "1" : "x") : " "
                if state.faults.contains(fault) { label = state.faults.label(fault) }
            }
            let mark = (index == selection ? "▸" : " ") + status
            let style = index == selection ? theme.selected : theme.plain
            if index == selection { grid.fill(x: origin.x, y: y, width: inner, height: 1, style: style) }
            let party: Fault.Party
            if case let .fault(fault) = row { party = fault.party } else { party = .app }
            grid.put("\(mark) \(party.name[lang])", x: origin.x, y: y, style: style, limit: 12)
            grid.put(label, x: origin.x + 13, y: y, style: index == selection ? style : theme.heading, limit: 30)
            grid.put(row.summary(lang), x: origin.x + 44, y: y, style: index == selection ? style : theme.dimmed, limit: inner - 44)
        }
        grid.put(Text.faultPanelHint(lang), x: origin.x, y: origin.y + visible + 1, style: theme.dimmed, limit: inner)
    }

    mutating func drawScenarioList(selection: Int) {
        let inner = min(width - 6, 96)
        let list = state.scenarios
        let visible = max(min(list.count, height - 9), 1)
        let origin = centredFrame(innerWidth: inner, innerHeight: visible + 4, title: Text.scenariosTitle(lang))
        guard !list.isEmpty else {
            grid.put(Text.noScenarios(lang), x: origin.x, y: origin.y, style: theme.dimmed, limit: inner)
            return
        }
        let first = min(max(selection - visible / 2, 0), list.count - visible)
        for (offset, scenario) in list[first..<first + visible].enumerated() {
            let index = first + offset
            let style = index == selection ? theme.selected : theme.plain
            if index == selection { grid.fill(x: origin.x, y: origin.y + offset, width: inner, height: 1, style: style) }
            grid.put((index == selection ? "▸" : " ") + scenario.name, x: origin.x, y: origin.y + offset, style: style, limit: inner)
        }
        if list.indices.contains(selection) {
            wrap(list[selection].shows[lang], x: origin.x, y: origin.y + visible + 1, width: inner, lines: 2, style: theme.dimmed)
        }
        grid.put(Text.scenariosHint(lang), x: origin.x, y: origin.y + visible + 3, style: theme.dimmed, limit: inner)
    }

    mutating func drawInspector(_ view: InspectorView) {
        let top = 1
        grid.fill(x: 0, y: top, width: width, height: height - 3, style: theme.plain)
        let column = (width - 2) / 3
        let listHeight = max((height - 5) / 2 - 1, 3)
        let who = state.user ?? "—"
        let heads = [
            "\(Text.inspectorStore(lang)) (\(view.storeTotal))",
            "\(Text.inspectorClient(lang)) \(who) (\(state.pendingCount))",
            "\(Text.inspectorBackend(lang)) \(who) (\(view.creditTotal))",
        ]
        for (i, head) in heads.enumerated() {
            grid.put(head, x: 1 + i * column, y: top, style: theme.heading, limit: column - 1)
            grid.put(String(repeating: "─", count: column - 1), x: 1 + i * column, y: top + 1, style: theme.frame)
        }
        for (row, transaction) in view.storeQueue.prefix(listHeight).enumerated() {
            let line = "\(transaction.id) \(Timeline.state(transaction.state)[lang]) \(transaction.applicationUsername ?? "∅")"
            grid.put(line, x: 1, y: top + 2 + row, style: theme.plain, limit: column - 1)
        }
        for (row, order) in state.pendingOrders.prefix(listHeight).enumerated() {
            let next = state.nextAttempt(for: order).map { " " + Text.nextRetry(lang) + " " + String(max(Int($0.timeIntervalSince(state.now).rounded(.up)), 0)) + "s" } ?? ""
            let line = "\(order.transactionId) ×\(order.attempts)\(next)"
            grid.put(line, x: 1 + column, y: top + 2 + row, style: theme.plain, limit: column - 1)
        }
        // Paid transactions no evidence ties to a buyer: support's to assign (I3).
        let shownOrders = min(state.pendingOrders.count, listHeight)
        for (row, transaction) in state.unclaimed.prefix(listHeight - shownOrders).enumerated() {
            let line = "\(transaction.id) \(Text.unclaimed(lang))"
            grid.put(line, x: 1 + column, y: top + 2 + shownOrders + row, style: theme.bad, limit: column - 1)
        }
        for (row, credit) in view.credits.prefix(listHeight).enumerated() {
            grid.put("\(credit.transactionId) +\(credit.coins)", x: 1 + 2 * column, y: top + 2 + row, style: theme.good, limit: column - 1)
        }
        let timelineTop = top + 3 + listHeight
        grid.put(Text.inspectorTimeline(lang), x: 1, y: timelineTop, style: theme.heading)
        grid.put(String(repeating: "─", count: width - 2), x: 1, y: timelineTop + 1, style: theme.frame)
        let room = height - 3 - (timelineTop + 2)
        let start = view.timeline.first?.at ?? state.now
        for (row, entry) in view.timeline.suffix(max(room, 0)).enumerated() {
            let clock = String(format: "%7.1fs", entry.at.timeIntervalSince(start))
            grid.put(clock, x: 1, y: timelineTop + 2 + row, style: theme.dimmed)
            grid.put(entry.text, x: 10, y: timelineTop + 2 + row, style: theme.plain, limit: width - 11)
        }
    }

    /// Word-wraps `text` into at most `lines` rows; never splits a wide character.
    mutating func wrap(_ text: String, x: Int, y: Int, width w: Int, lines: Int, style: Style) {
        for (row, line) in wrappedLines(text, width: w).prefix(max(lines, 0)).enumerated() {
            grid.put(line, x: x, y: y + row, style: style, limit: w)
        }
    }
}
