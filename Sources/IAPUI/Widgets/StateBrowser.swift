/// Every state by name, the selected one explained beside the list.
struct StateBrowser: Widget {
    var title: String
    var names: [String]
    var selection: Int
    var explanation: Explanation?
    var close: String
    var theme: Theme

    static let listWidth = 22

    func draw(in area: Rect, on grid: inout ScreenGrid) {
        let inner = Box(title: title, theme: theme)
            .draw(aroundWidth: min(area.width - 6, 110), height: area.height - 4, centredIn: area, on: &grid)
        let (body, footer) = inner.splitBottom(2)
        let (list, rest) = body.splitLeft(Self.listWidth)
        ScrollingList(rows: names.map { ScrollingList.line($0, style: theme.plain) }, selection: selection, follow: .centre,
                      marker: .cursor, highlight: theme.selected)
            .draw(in: list, on: &grid)
        explanation?.draw(in: rest.splitLeft(2).rest, on: &grid)
        grid.put(close, x: footer.x, y: footer.maxY - 1, style: theme.dimmed, limit: footer.width)
    }
}
