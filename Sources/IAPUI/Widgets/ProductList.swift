/// The shop: a heading with the balance, a rule, and the products (or why there are none).
struct ProductList: Widget {
    struct Row {
        var title: String
        var kind: String
        var summary: String
        /// Where a subscription the user has stands, said instead of its kind and summary, across both columns.
        var status: String? = nil
        var statusStyle: Style? = nil
        var price: String
        /// What the price is for, right after it ("/month"); empty for what is paid once.
        var period = ""
        var owned = false
        /// Said instead of the list's mark for what is owned another way (through Family Sharing).
        var ownedAs: String? = nil
    }

    enum Content {
        case loading
        /// No list: why, what asks again, and the identifiers the app is built with, to buy by (seeds 000, 004).
        case unavailable(reason: String, again: String, byIdentifier: String, identifiers: [String], selection: Int)
        case rows([Row], selection: Int)
    }

    /// How wide each column is, from every row (not only those in view), so that nothing moves while scrolling.
    struct Widths: Equatable {
        var title: Int
        var kind: Int
        var summary: Int
        var price: Int
        var period: Int
        var mark: Int
    }

    var heading: String
    var balance: String
    var content: Content
    /// The mark of what the user owns ("Owned").
    var ownedMark: String
    var theme: Theme

    static let cursor = ScrollingList.Marker(selected: " ▸ ", other: "   ")
    /// Between the title, the kind, the summary and the price, so that columns sized to their text stay apart.
    static let gap = 2

    func draw(in area: Rect, on grid: inout ScreenGrid) {
        let (top, body) = area.splitTop(2)
        let header = top.inset(dx: 2)
        grid.put(heading, x: header.x, y: header.y, style: theme.heading)
        grid.put(balance, x: header.maxX - displayWidth(balance), y: header.y, style: theme.heading)
        grid.put(String(repeating: "─", count: header.width), x: header.x, y: header.y + 1, style: theme.frame)
        switch content {
        case .loading:
            break
        case let .unavailable(reason, again, byIdentifier, identifiers, selection):
            grid.put(reason, x: body.x + 3, y: body.y + 1, style: theme.bad)
            grid.put(again, x: body.x + 3, y: body.y + 2, style: theme.dimmed)
            guard !identifiers.isEmpty else { return }
            grid.put(byIdentifier, x: body.x + 3, y: body.y + 4, style: theme.plain)
            let (_, list) = body.splitTop(5)
            ScrollingList(rows: identifiers.map { [ScrollingList.Column($0, width: displayWidth($0), style: theme.plain)] }, selection: selection,
                          follow: .edge, marker: Self.cursor, highlight: theme.selected)
                .draw(in: list.inset(dx: 1), on: &grid)
        case let .rows(rows, selection):
            let list = body.inset(dx: 1)
            let widths = Self.widths(rows, ownedMark: ownedMark, width: list.width)
            ScrollingList(rows: rows.map { columns($0, widths) }, selection: selection, follow: .edge, marker: Self.cursor,
                          highlight: theme.selected)
                .draw(in: list, on: &grid)
        }
    }

    private func columns(_ row: Row, _ widths: Widths) -> ScrollingList.Row {
        let gap = Self.gap
        let middle: [ScrollingList.Column] = if let status = row.status {
            [ScrollingList.Column(status, width: widths.kind + gap + widths.summary, style: row.statusStyle ?? theme.plain, gap: gap)]
        } else {
            [ScrollingList.Column(row.kind, width: widths.kind, style: theme.plain, gap: gap),
             ScrollingList.Column(row.summary, width: widths.summary, style: theme.plain, gap: gap)]
        }
        return [ScrollingList.Column(row.title, width: widths.title, style: theme.plain, gap: gap)] + middle + [
            ScrollingList.Column(row.price, width: widths.price, style: theme.plain, alignRight: true, gap: 0),
            ScrollingList.Column(row.period, width: widths.period, style: theme.plain),
            ScrollingList.Column(row.owned ? " " + (row.ownedAs ?? ownedMark) : "", width: widths.mark, style: theme.plain),
        ]
    }

    /// The kind, price, period and mark as wide as their longest entry; the title and the summary share the rest: the
    /// title whole up to two thirds of it, and more while the summary (or a status, which also has the kind's room)
    /// stays whole.
    static func widths(_ rows: [Row], ownedMark: String, width: Int) -> Widths {
        func widest(_ text: (Row) -> String) -> Int { rows.map { displayWidth(text($0)) }.max() ?? 0 }
        let kind = widest(\.kind), price = widest(\.price), period = widest(\.period)
        let mark = 1 + max(displayWidth(ownedMark), widest { $0.owned ? $0.ownedAs ?? "" : "" })
        // Besides the cursor: the wide gaps up to the price, none between the price and its period, one before the mark
        // and one column left free at the right edge.
        let shared = max(width - displayWidth(cursor.selected) - kind - price - period - mark - 3 * gap - 2, 0)
        let summary = max(widest(\.summary), widest { $0.status ?? "" } - kind - gap)
        let title = min(widest(\.title), max(shared * 2 / 3, shared - summary))
        return Widths(title: title, kind: kind, summary: shared - title, price: price, period: period, mark: mark)
    }
}
