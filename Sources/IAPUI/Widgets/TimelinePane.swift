/// The inspector's timeline: the newest entries that fit, each with its time since the first.
struct TimelinePane: Widget {
    var heading: String
    var entries: [(clock: String, text: String)]
    var theme: Theme
    /// How many entries back from the newest the last line in view is.
    var scrollBack = 0

    func draw(in area: Rect, on grid: inout ScreenGrid) {
        grid.put(heading, x: area.x, y: area.y, style: theme.heading)
        grid.put(String(repeating: "─", count: area.width), x: area.x, y: area.y + 1, style: theme.frame)
        let clockWidth = entries.map { displayWidth($0.clock) }.max() ?? 0
        let rows = entries.map {
            [ScrollingList.Column($0.clock, width: clockWidth, style: theme.dimmed), ScrollingList.Column($0.text, style: theme.plain)]
        }
        // Following the last entry keeps the newest in view; scrolled back, the window ends that far before it.
        ScrollingList(rows: rows, selection: rows.indices.last.map { max($0 - scrollBack, 0) })
            .draw(in: area.splitTop(2).rest, on: &grid)
    }
}
