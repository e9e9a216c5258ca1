/// A list panel's box: its rows under a title, the selection followed and marked, lines about the selected row under
/// them, and what its keys do at the bottom. Every list panel but the state browser (whose explanation stands beside
/// its list) draws one.
struct ListBox: Widget {
    /// About the selected row: under the list after a blank line, always `height` lines so that the box keeps its size
    /// while the selection moves.
    struct Details {
        var lines: [String]
        /// The lines as one text wrapped over `height` lines.
        var wrapped = false
        var height: Int
        var style: Style
    }

    var title: String
    var rows: [ScrollingList.Row]
    var selection: Int
    var maxWidth = 96
    /// The first column never takes more than half the box (a long name leaves room for what follows it).
    var firstColumnAtMostHalf = false
    /// The fewest lines the list takes however few rows it has.
    var minimumRows = 1
    /// Lines of the area the box leaves free.
    var margin = 2
    var details: Details?
    var hint: String?
    /// Said in place of the list when it has no rows.
    var empty: (text: String, style: Style)?
    var theme: Theme

    func draw(in area: Rect, on grid: inout ScreenGrid) {
        let width = min(area.width - 6, maxWidth)
        let below = details?.height ?? 0
        let visible = max(min(rows.count, area.height - 4 - margin - below), minimumRows)
        let inner = Box(title: title, theme: theme).draw(aroundWidth: width, height: visible + 2 + below, centredIn: area, on: &grid)
        if rows.isEmpty, let empty {
            grid.put(empty.text, x: inner.x, y: inner.y, style: empty.style, limit: width)
        } else {
            let rows = !firstColumnAtMostHalf ? self.rows : self.rows.map { row in
                var row = row
                if !row.isEmpty { row[0].width = min(row[0].width ?? width, width / 2) }
                return row
            }
            ScrollingList(rows: rows, selection: selection, follow: .centre, marker: .cursor, highlight: theme.selected)
                .draw(in: Rect(x: inner.x, y: inner.y, width: width, height: visible), on: &grid)
            if let details {
                let under = Rect(x: inner.x, y: inner.y + visible + 1, width: width, height: details.height)
                if details.wrapped {
                    grid.putWrapped(details.lines.joined(separator: " "), in: under, style: details.style)
                } else {
                    for (i, line) in details.lines.prefix(details.height).enumerated() {
                        grid.put(line, x: under.x, y: under.y + i, style: details.style, limit: width)
                    }
                }
            }
        }
        if let hint { grid.put(hint, x: inner.x, y: inner.y + visible + 1 + below, style: theme.dimmed, limit: width) }
    }
}
