/// Every state by name, the selected one explained beside the list.
struct StateBrowser: Widget {
    var title: String
    var names: [String]
    var selection: Int
    var explanation: Explanation?
    var close: String
    /// The footer in place of `close` when the explanation takes more than the room beside the list.
    var cut: String
    var theme: Theme

    /// The list's columns: its longest name's (the marker's two columns and a space to spare besides), at least 22 and
    /// at most a third of the box, so that a wide terminal shows the names whole and a narrow one the explanation.
    static func listWidth(_ names: [String], body: Int) -> Int {
        max(22, min((names.map(displayWidth).max() ?? 0) + 3, body / 3))
    }

    func draw(in area: Rect, on grid: inout ScreenGrid) {
        let inner = Box(title: title, theme: theme)
            .draw(aroundWidth: min(area.width - 6, 110), height: area.height - 4, centredIn: area, on: &grid)
        let (body, footer) = inner.splitBottom(2)
        let (list, rest) = body.splitLeft(Self.listWidth(names, body: body.width))
        ScrollingList(rows: names.map { ScrollingList.line($0, style: theme.plain) }, selection: selection, follow: .centre,
                      marker: .cursor, highlight: theme.selected)
            .draw(in: list, on: &grid)
        let pages = explanation?.drawPage(in: rest.splitLeft(2).rest, on: &grid).count ?? 1
        grid.put(pages > 1 ? cut : close, x: footer.x, y: footer.maxY - 1, style: theme.dimmed, limit: footer.width)
    }
}
