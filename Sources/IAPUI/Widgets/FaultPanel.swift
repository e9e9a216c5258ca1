/// QA's fault panel: every fault with its party, name and summary, and what is armed.
struct FaultPanel: Widget {
    struct Row {
        /// "x" armed, "1" armed one-shot, "·" an app event, " " neither.
        var status: String
        var party: String
        var label: String
        var summary: String
    }

    var title: String
    var rows: [Row]
    var selection: Int
    var hint: String
    var theme: Theme

    func draw(in area: Rect, on grid: inout ScreenGrid) {
        let width = min(area.width - 6, 96)
        let visible = max(min(rows.count, area.height - 6), 3)
        let inner = Box(title: title, theme: theme).draw(aroundWidth: width, height: visible + 2, centredIn: area, on: &grid)
        let table = rows.map { row in
            [
                ScrollingList.Column("\(row.status) \(row.party)", width: 11, style: theme.plain),
                ScrollingList.Column(row.label, width: 30, style: theme.heading),
                ScrollingList.Column(row.summary, style: theme.dimmed),
            ]
        }
        ScrollingList(rows: table, selection: selection, follow: .centre, marker: .cursor, highlight: theme.selected)
            .draw(in: Rect(x: inner.x, y: inner.y, width: width, height: visible), on: &grid)
        grid.put(hint, x: inner.x, y: inner.y + visible + 1, style: theme.dimmed, limit: width)
    }
}
