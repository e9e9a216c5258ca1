/// The shop: a heading with the balance, a rule, and the products (or why there are none).
struct ProductList: Widget {
    struct Row {
        var title: String
        var kind: String
        var summary: String
        var price: String
        /// "owned", or nothing.
        var mark: String
    }

    enum Content {
        case loading
        case message(String)
        case rows([Row], selection: Int)
    }

    var heading: String
    var balance: String
    var content: Content
    var theme: Theme

    func draw(in area: Rect, on grid: inout ScreenGrid) {
        let (top, body) = area.splitTop(2)
        let header = top.inset(dx: 2)
        grid.put(heading, x: header.x, y: header.y, style: theme.heading)
        grid.put(balance, x: header.maxX - displayWidth(balance), y: header.y, style: theme.heading)
        grid.put(String(repeating: "─", count: header.width), x: header.x, y: header.y + 1, style: theme.frame)
        switch content {
        case .loading:
            break
        case let .message(text):
            grid.put(text, x: body.x + 3, y: body.y + 1, style: theme.bad)
        case let .rows(rows, selection):
            let list = body.inset(dx: 1)
            // The summary takes what the cursor, the other columns, their gaps and one column at the right edge leave.
            let summaryWidth = max(list.width - 3 - (18 + 16 + 7 + 9) - 4 - 1, 0)
            let table = rows.map { row in
                [
                    ScrollingList.Column(row.title, width: 18, style: theme.plain),
                    ScrollingList.Column(row.kind, width: 16, style: theme.plain),
                    ScrollingList.Column(row.summary, width: summaryWidth, style: theme.plain),
                    ScrollingList.Column(row.price, width: 7, style: theme.plain, alignRight: true),
                    ScrollingList.Column(row.mark, width: 9, style: theme.plain),
                ]
            }
            ScrollingList(rows: table, selection: selection, follow: .edge, marker: .init(selected: " ▸ ", other: "   "),
                          highlight: theme.selected)
                .draw(in: list, on: &grid)
        }
    }
}
