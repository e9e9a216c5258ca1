/// The shipped scenarios to start, with what the selected one shows.
struct ScenarioList: Widget {
    var title: String
    var names: [String]
    var selection: Int
    /// What the selected scenario shows.
    var shows: String?
    var hint: String
    /// Said instead of the list when there are none.
    var empty: String
    var theme: Theme

    func draw(in area: Rect, on grid: inout ScreenGrid) {
        let width = min(area.width - 6, 96)
        let visible = max(min(names.count, area.height - 7), 1)
        let inner = Box(title: title, theme: theme).draw(aroundWidth: width, height: visible + 4, centredIn: area, on: &grid)
        guard !names.isEmpty else {
            grid.put(empty, x: inner.x, y: inner.y, style: theme.dimmed, limit: width)
            return
        }
        ScrollingList(rows: names.map { ScrollingList.line($0, style: theme.plain) }, selection: selection, follow: .centre,
                      marker: .cursor, highlight: theme.selected)
            .draw(in: Rect(x: inner.x, y: inner.y, width: width, height: visible), on: &grid)
        if let shows {
            grid.putWrapped(shows, in: Rect(x: inner.x, y: inner.y + visible + 1, width: width, height: 2), style: theme.dimmed)
        }
        grid.put(hint, x: inner.x, y: inner.y + visible + 3, style: theme.dimmed, limit: width)
    }
}
