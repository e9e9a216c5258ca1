/// Settings › Subscriptions: one row per subscription with where it stands; under the list, more about the selected
/// one and what Enter does to it.
struct SubscriptionPanel: Widget {
    struct Row {
        var title: String
        var status: String
        var statusStyle: Style
    }

    var title: String
    var rows: [Row]
    var selection: Int
    /// About the selected subscription: its group, level and price, then what comes next for it.
    var details: [String]
    var hint: String
    /// Said instead of the list when the account has no subscription.
    var empty: String
    var theme: Theme

    /// The selected one's details always take this many lines, so that the box keeps its size while moving.
    static let detailLines = 2

    func draw(in area: Rect, on grid: inout ScreenGrid) {
        let width = min(area.width - 6, 80)
        guard !rows.isEmpty else {
            let inner = Box(title: title, theme: theme).draw(aroundWidth: width, height: 3, centredIn: area, on: &grid)
            grid.put(empty, x: inner.x, y: inner.y, style: theme.plain, limit: width)
            grid.put(hint, x: inner.x, y: inner.y + 2, style: theme.dimmed, limit: width)
            return
        }
        // The list, a blank line, the details, a blank line, the hint.
        let visible = max(min(rows.count, area.height - 4 - Self.detailLines - 3), 1)
        let inner = Box(title: title, theme: theme).draw(aroundWidth: width, height: visible + Self.detailLines + 3, centredIn: area,
                                                         on: &grid)
        let titleWidth = min(rows.map { displayWidth($0.title) }.max() ?? 0, width / 2)
        let table = rows.map { row in
            [
                ScrollingList.Column(row.title, width: titleWidth, style: theme.plain, gap: 2),
                ScrollingList.Column(row.status, style: row.statusStyle),
            ]
        }
        ScrollingList(rows: table, selection: selection, follow: .centre, marker: .cursor, highlight: theme.selected)
            .draw(in: Rect(x: inner.x, y: inner.y, width: width, height: visible), on: &grid)
        for (i, line) in details.prefix(Self.detailLines).enumerated() {
            grid.put(line, x: inner.x, y: inner.y + visible + 1 + i, style: theme.plain, limit: width)
        }
        grid.put(hint, x: inner.x, y: inner.y + visible + Self.detailLines + 2, style: theme.dimmed, limit: width)
    }
}
