/// The three parties side by side, each a heading, a rule and its first records.
struct InspectorColumns: Widget {
    struct Column {
        var heading: String
        var rows: [(text: String, style: Style)]
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
            ScrollingList(rows: column.rows.map { ScrollingList.line($0.text, style: $0.style) })
                .draw(in: Rect(x: x, y: area.y + 2, width: width - 1, height: area.height - 2), on: &grid)
        }
    }
}
