/// Every list on screen that may hold more rows than it shows: the rows in view around the selection, the selection
/// marked and filled, each column cut with "…" to its width, and a "+N" line for rows it was not given.
struct ScrollingList: Widget {
    /// A piece of a row: at most `width` columns (the rest of the row when nil), followed by a gap (none where the
    /// next column continues this one's text, as a price's period does).
    struct Column {
        var text: String
        var width: Int?
        var style: Style
        var alignRight = false
        var gap = 1
        /// Narrower than `width` when the line is too narrow for the row's last column whole (see `givingWay`).
        var givesWay = false

        init(_ text: String, width: Int? = nil, style: Style, alignRight: Bool = false, gap: Int = 1, givesWay: Bool = false) {
            self.text = text
            self.width = width
            self.style = style
            self.alignRight = alignRight
            self.gap = gap
            self.givesWay = givesWay
        }
    }

    typealias Row = [Column]

    /// A row of one column: the whole line.
    static func line(_ text: String, style: Style) -> Row {
        [Column(text, style: style)]
    }

    /// How the window moves with the selection.
    enum Follow {
        /// From the top, only as far as it must: the selection sits on the bottom edge once past the first page.
        case edge
        /// Keeps the selection in the middle, except near the ends.
        case centre
    }

    /// What comes before every row: a cursor for the selected one, blanks (or a bullet) for the others.
    struct Marker {
        var selected: String
        var other: String

        static let cursor = Marker(selected: "▸", other: " ")
        static let bullet = Marker(selected: "• ", other: "• ")
    }

    var rows: [Row]
    /// The row the window follows; it is filled with `highlight` when there is one.
    var selection: Int?
    var follow = Follow.edge
    var marker: Marker?
    var highlight: Style?
    /// How many rows the list has in all when it was given only the first ones: the rest are counted on a "+N" line.
    var total: Int?
    var moreStyle = Style.plain

    /// The rows in view in `height` lines: the selection in view, and no blank lines while rows remain.
    static func window(count: Int, height: Int, selection: Int?, follow: Follow) -> Range<Int> {
        let height = max(height, 0)
        let last = max(count - height, 0)
        let first: Int
        switch (selection, follow) {
        case (nil, _): first = 0
        case let (selection?, .edge): first = selection - height + 1
        case let (selection?, .centre): first = selection - height / 2
        }
        let start = min(max(first, 0), last)
        return start..<min(start + height, count)
    }

    func draw(in area: Rect, on grid: inout ScreenGrid) {
        let total = max(self.total ?? 0, rows.count)
        // The rows it was not given are counted on a last line, which the window gives up.
        let counted = total > rows.count && area.height > 0
        let window = Self.window(count: rows.count, height: area.height - (counted ? 1 : 0), selection: selection, follow: follow)
        let widths = Self.givingWay(Array(rows[window]), width: area.width - displayWidth(marker?.other ?? ""))
        for (line, index) in window.enumerated() {
            var row = rows[index]
            for (column, width) in zip(row.indices, widths ?? []) { row[column].width = width }
            draw(row, selected: index == selection, in: area.row(line), on: &grid)
        }
        if counted {
            // Under the rows' text, past their markers.
            let indent = String(repeating: " ", count: displayWidth(marker?.other ?? ""))
            grid.put(indent + "+\(total - window.upperBound)", x: area.x, y: area.y + window.count, style: moreStyle, limit: area.width)
        }
    }

    /// The narrowest a column gives way to.
    static let narrowest = 6

    /// Widths for the rows' sized columns when the line is too narrow for them and every row's last column (the one
    /// without a width, what the row says) whole: the columns that give way narrow, the widest first, the same on every
    /// row so that the columns stay aligned. Nil when nothing need give way, when the rows are not all laid out alike,
    /// or when giving way down to `narrowest` would not make every last column whole.
    static func givingWay(_ rows: [Row], width: Int) -> [Int]? {
        guard let first = rows.first, first.count >= 2, first.last?.width == nil, first.contains(where: \.givesWay) else { return nil }
        let sized = first.dropLast()
        var widths = sized.compactMap(\.width)
        guard widths.count == sized.count,
              rows.allSatisfy({ $0.count == first.count && zip($0.dropLast(), widths).allSatisfy { $0.width == $1 } && $0.last?.width == nil })
        else { return nil }
        let used = zip(widths, sized).reduce(0) { $0 + $1.0 + $1.1.gap }
        var overflow = used + (rows.map { displayWidth($0.last!.text) }.max() ?? 0) - width
        let yielding = sized.indices.filter { sized[$0].givesWay }
        guard overflow > 0, yielding.reduce(0, { $0 + max(widths[$1] - narrowest, 0) }) >= overflow else { return nil }
        while overflow > 0, let widest = yielding.max(by: { widths[$0] < widths[$1] }) {
            widths[widest] -= 1
            overflow -= 1
        }
        return widths
    }

    private func draw(_ row: Row, selected: Bool, in line: Rect, on grid: inout ScreenGrid) {
        let highlight = selected ? self.highlight : nil
        if let highlight { grid.fill(line, style: highlight) }
        let mark = (selected ? marker?.selected : marker?.other) ?? ""
        var x = line.x + grid.put(mark, x: line.x, y: line.y, style: highlight ?? row.first?.style ?? .plain, limit: line.width)
        for column in row {
            let width = max(min(column.width ?? line.maxX - x, line.maxX - x), 0)
            let text = truncated(column.text, to: width)
            let indent = column.alignRight ? width - displayWidth(text) : 0
            grid.put(text, x: x + indent, y: line.y, style: highlight ?? column.style, limit: width - indent)
            x += width + column.gap
        }
    }
}
