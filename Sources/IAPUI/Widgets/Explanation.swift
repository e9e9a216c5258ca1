/// One state explained for support: what the user sees, what happens underneath, what to do, how to reach it.
struct Explanation: Widget {
    struct Section {
        var heading: String
        var body: String
    }

    var sections: [Section]
    var theme: Theme

    /// Each section a heading and its text wrapped two columns in, as many as fit; the last one fitting is cut short.
    func draw(in area: Rect, on grid: inout ScreenGrid) {
        let lastRow = area.maxY - 1
        var row = area.y
        for section in sections where row <= lastRow {
            grid.put(section.heading, x: area.x, y: row, style: theme.heading, limit: area.width)
            let lines = min(wrappedLines(section.body, width: area.width - 2).count, max(lastRow - row, 0))
            grid.putWrapped(section.body, in: Rect(x: area.x + 2, y: row + 1, width: area.width - 2, height: lines), style: theme.plain)
            row += 1 + lines + 1
        }
    }
}

/// The explanation of one state, alone in a box named after it.
struct ExplanationBox: Widget {
    var title: String
    var explanation: Explanation
    var close: String
    var theme: Theme

    func draw(in area: Rect, on grid: inout ScreenGrid) {
        let inner = Box(title: title, theme: theme)
            .draw(aroundWidth: min(area.width - 6, 90), height: area.height - 4, centredIn: area, on: &grid)
        explanation.draw(in: inner.splitBottom(1).rest, on: &grid)
        grid.put(close, x: inner.x, y: inner.maxY - 1, style: theme.dimmed, limit: inner.width)
    }
}
