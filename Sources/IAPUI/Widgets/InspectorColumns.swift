/// The three parties side by side, each a heading, a rule and its first records.
struct InspectorColumns: Widget {
    struct Column {
        var heading: String
        var rows: [(text: String, style: Style)]
        /// Rows the column has that it was not given: a party is read a page at a time, never its whole history.
        var unread = 0
    }

    var columns: [Column]
    var theme: Theme

    func draw(in area: Rect, on grid: inout ScreenGrid) {
        let width = (area.width - 2) / 3
        for (i, column) in columns.enumerated() {
            // One column of margin on the left, one between columns.
            let x = area.x + 1 + i * width
            grid.put(column.heading, x: x, y: area.y, style: theme.heading, limit: width - 1)
            grid.put(String(repeating: "─", count: max(width - 1, 0)), x: x, y: area.y + 1, style: theme.frame)
            // Rows past the bottom, and those not read, are counted on the last line ("+N"), as a list given only its
            // first rows counts the rest.
            let height = area.height - 2, total = column.rows.count + max(column.unread, 0)
            let rows = total > height ? Array(column.rows.prefix(max(height - 1, 0))) : column.rows
            ScrollingList(rows: rows.map { ScrollingList.line($0.text, style: $0.style) }, total: total, moreStyle: theme.dimmed)
                .draw(in: Rect(x: x, y: area.y + 2, width: width - 1, height: height), on: &grid)
        }
    }
}
