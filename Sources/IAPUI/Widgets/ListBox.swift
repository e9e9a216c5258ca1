/// A list panel's box: its rows under a title, the selection followed and marked, lines about the selected row under
/// them, and what its keys do at the bottom. Every list panel but the state browser (whose explanation stands beside
/// its list) draws one.
struct ListBox: Widget {
    /// About the selected row: under the list after a blank line, at least `height` lines so that the box mostly keeps
    /// its size while the selection moves; a line longer than the box goes on below it, and the box grows to show it.
    struct Details {
        var lines: [String]
        /// The lines as one text.
        var wrapped = false
        var height: Int
        var style: Style
        /// A blank line between them and the hint, however many rows they take.
        var spaced = false

        /// The rows the lines take at `width`; where fewer than they need fit in `room`, the last one shown ends in "…".
        func rows(width: Int, room: Int) -> [String] {
            let rows = wrapped ? wrappedLines(lines.joined(separator: " "), width: width) : lines.flatMap { wrappedLines($0, width: width) }
            guard rows.count > room, room > 0 else { return rows }
            return rows.prefix(room - 1) + [truncated(rows[room - 1] + " " + rows[room], to: width)]
        }
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
    /// What the keys do, on as many lines as it takes at the box's width; the list gives up rows for them.
    var hint: String?
    /// Said in place of the list when it has no rows.
    var empty: (text: String, style: Style)?
    var theme: Theme

    func draw(in area: Rect, on grid: inout ScreenGrid) {
        let width = min(area.width - 6, maxWidth)
        // The details take what they need, leaving the list its fewest rows.
        let blank = details?.spaced == true ? 1 : 0
        let hintRows = hint.map { wrappedHint($0, width: width) } ?? []
        // The box keeps a line for the hint with or without one; a hint wrapped takes more.
        let moreHint = max(hintRows.count - 1, 0)
        let room = max(area.height - 4 - margin - minimumRows - blank - moreHint, details?.height ?? 0)
        let detailRows = details?.rows(width: width, room: room) ?? []
        let below = min(max(details?.height ?? 0, detailRows.count), room) + blank
        let visible = max(min(rows.count, area.height - 4 - margin - below - moreHint), minimumRows)
        let inner = Box(title: title, theme: theme).draw(aroundWidth: width, height: visible + 2 + below + moreHint, centredIn: area, on: &grid)
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
                for (i, row) in detailRows.prefix(below).enumerated() {
                    grid.put(row, x: inner.x, y: inner.y + visible + 1 + i, style: details.style, limit: width)
                }
            }
        }
        for (i, row) in hintRows.enumerated() {
            grid.put(row, x: inner.x, y: inner.y + visible + 1 + below + i, style: theme.dimmed, limit: width)
        }
    }
}
