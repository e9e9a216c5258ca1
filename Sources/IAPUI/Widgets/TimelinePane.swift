/// The inspector's timeline: the newest entries that fit, each with its time since the first; an entry longer than the
/// pane goes on under itself, past the clock, rather than being cut (unless `wraps` is off).
struct TimelinePane: Widget {
    var heading: String
    var entries: [(clock: String, text: String)]
    var theme: Theme
    /// How many pages back from the newest the view is: a page is as many lines as the pane shows.
    var pagesBack = 0
    /// Whether an entry longer than the pane goes on under itself; otherwise it is cut, one line each.
    var wraps = true

    /// Below this a text column is too narrow to wrap into: its lines are cut instead.
    private static let narrowestText = 12

    func draw(in area: Rect, on grid: inout ScreenGrid) {
        grid.put(heading, x: area.x, y: area.y, style: theme.heading)
        grid.put(String(repeating: "─", count: area.width), x: area.x, y: area.y + 1, style: theme.frame)
        let clockWidth = entries.map { displayWidth($0.clock) }.max() ?? 0
        let list = area.splitTop(2).rest
        let page = max(list.height, 1)
        let textWidth = list.width - clockWidth - (clockWidth > 0 ? 1 : 0)
        // Wrapped from the newest back, only as far as the page turned to needs: the timeline may be long.
        var rows: [(row: ScrollingList.Row, continues: Bool)] = []
        for entry in entries.reversed() {
            let lines = wraps && textWidth >= Self.narrowestText ? wrappedLines(entry.text, width: textWidth) : [entry.text]
            for (index, line) in lines.enumerated().reversed() {
                let text = ScrollingList.Column(line, style: theme.plain)
                rows.append((clockWidth > 0 ? [ScrollingList.Column(index == 0 ? entry.clock : "", width: clockWidth, style: theme.dimmed), text] : [text],
                             index > 0))
            }
            if rows.count >= (pagesBack + 2) * page { break }
        }
        rows.reverse()
        // Following the last line keeps the newest in view; turned back, the window ends a whole page before the last
        // line of the page after it, so that no line is skipped.
        let selection = rows.indices.last.map { max($0 - pagesBack * page, 0) }
        // An entry whose first line is above the window is left out whole: its rest alone would read as another entry.
        var shown = rows.map(\.row)
        for index in ScrollingList.window(count: rows.count, height: list.height, selection: selection, follow: .edge) {
            guard rows[index].continues else { break }
            shown[index] = []
        }
        ScrollingList(rows: shown, selection: selection).draw(in: list, on: &grid)
    }
}
