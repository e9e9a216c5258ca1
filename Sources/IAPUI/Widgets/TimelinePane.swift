/// The inspector's timeline: the newest entries that fit, each with its time since the first.
struct TimelinePane: Widget {
    var heading: String
    var entries: [(clock: String, text: String)]
    var theme: Theme
    /// How many pages back from the newest the view is: a page is as many lines as the pane shows.
    var pagesBack = 0

    func draw(in area: Rect, on grid: inout ScreenGrid) {
        grid.put(heading, x: area.x, y: area.y, style: theme.heading)
        grid.put(String(repeating: "─", count: area.width), x: area.x, y: area.y + 1, style: theme.frame)
        let clockWidth = entries.map { displayWidth($0.clock) }.max() ?? 0
        let rows = entries.map {
            [ScrollingList.Column($0.clock, width: clockWidth, style: theme.dimmed), ScrollingList.Column($0.text, style: theme.plain)]
        }
        // Following the last entry keeps the newest in view; turned back, the window ends a whole page before the last
        // line of the page after it, so that no line is skipped.
        let list = area.splitTop(2).rest
        ScrollingList(rows: rows, selection: rows.indices.last.map { max($0 - pagesBack * max(list.height, 1), 0) })
            .draw(in: list, on: &grid)
    }
}
