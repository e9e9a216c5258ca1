/// Every key, grouped by where it works: two columns where the screen is wide enough for two, as tall as needed to hold
/// every key; what does not fit the screen's height goes on further pages, counted in the footer.
struct HelpOverlay: Widget {
    struct Section {
        var title: String
        var keys: [(key: String, help: String)]
    }

    enum Line: Equatable {
        case heading(String)
        case key(String, help: String)
        case blank
    }

    /// The columns of every page, and how many lines each holds.
    struct Layout {
        var width: Int
        var columnsPerPage: Int
        var lines: Int
        var columns: [[Line]]

        var pages: Int { max((columns.count + columnsPerPage - 1) / columnsPerPage, 1) }
    }

    var title: String
    var sections: [Section]
    /// Counted round the pages: one past the last is the first.
    var page: Int
    var close: String
    /// How to turn the pages, said after `close` when there is more than one.
    var turn: String
    var theme: Theme

    /// The narrowest column that holds a key and its longest help whole, in either language.
    static let columnWidth = 36
    static let maximumWidth = 100

    func layout(in area: Rect) -> Layout {
        let width = min(area.width - 6, Self.maximumWidth)
        let perPage = width >= 2 * Self.columnWidth ? 2 : 1
        // The frame takes two lines (the footer sits in its bottom edge); a section's heading and one key, at least, must fit.
        let room = max(area.height - 2, 2)
        let total = sections.reduce(0) { $0 + 1 + $1.keys.count }
        // On one page if at all possible, in the shortest columns that hold everything: with a blank line between
        // sections and each section whole, else without the blank lines, else with sections continued from one column
        // to the next. Failing all, as tall as the screen, paged (spaced unless that takes more pages).
        let shortest = max((total + perPage - 1) / perPage, 2)
        for (spaced, whole) in [(true, true), (false, true), (false, false)] {
            for lines in shortest...max(shortest, room) where lines <= room {
                let columns = Self.columns(sections, lines: lines, spaced: spaced, whole: whole)
                if columns.count <= perPage { return Layout(width: width, columnsPerPage: perPage, lines: lines, columns: columns) }
            }
        }
        let paged = [true, false].map { Layout(width: width, columnsPerPage: perPage, lines: room,
                                                columns: Self.columns(sections, lines: room, spaced: $0, whole: true)) }
        return paged[0].pages <= paged[1].pages ? paged[0] : paged[1]
    }

    /// The sections in columns of `lines`, each continued from one column to the next under its heading again; with
    /// `spaced`, a blank line before a section that does not start a column. With `whole`, a section that does not fit
    /// what is left of a column starts the next one, unless it is longer than a column.
    static func columns(_ sections: [Section], lines: Int, spaced: Bool = false, whole: Bool) -> [[Line]] {
        var columns: [[Line]] = [[]]
        func lead() -> [Line] { spaced && !columns[columns.count - 1].isEmpty ? [.blank] : [] }
        func left() -> Int { lines - columns[columns.count - 1].count - lead().count }
        for section in sections where !section.keys.isEmpty {
            let keys = section.keys.map { Line.key($0.key, help: $0.help) }
            if whole, 1 + keys.count > left(), 1 + keys.count <= lines { columns.append([]) }
            var rest = keys[...]
            while !rest.isEmpty {
                if left() < 2 { columns.append([]) }
                let room = left() - 1
                columns[columns.count - 1] += lead()
                columns[columns.count - 1].append(.heading(section.title))
                columns[columns.count - 1] += rest.prefix(room)
                rest = rest.dropFirst(room)
            }
        }
        return columns.filter { !$0.isEmpty }
    }

    func draw(in area: Rect, on grid: inout ScreenGrid) {
        let layout = layout(in: area)
        let pages = layout.pages, shown = (page % pages + pages) % pages
        // A blank line above the bottom edge when the screen has one to spare.
        let gap = layout.lines + 4 <= area.height ? 1 : 0
        let inner = Box(title: title, theme: theme).draw(aroundWidth: layout.width, height: layout.lines + gap, centredIn: area, on: &grid)
        let columnWidth = layout.width / layout.columnsPerPage
        let keyWidth = (sections.flatMap { $0.keys.map { displayWidth($0.key) } }.max() ?? 5) + 1
        let first = shown * layout.columnsPerPage
        for (c, column) in layout.columns[first..<min(first + layout.columnsPerPage, layout.columns.count)].enumerated() {
            let x = inner.x + c * columnWidth
            for (y, line) in zip(inner.y..., column) {
                switch line {
                case let .heading(text):
                    grid.put(text, x: x, y: y, style: theme.heading, limit: columnWidth - 1)
                case let .key(key, help):
                    grid.put(key, x: x, y: y, style: theme.hintKey)
                    grid.put(help, x: x + keyWidth, y: y, style: theme.plain, limit: columnWidth - keyWidth - 1)
                case .blank:
                    break
                }
            }
        }
        let footer = pages > 1 ? "\(close) · \(turn) (\(shown + 1)/\(pages))" : close
        // In the frame's bottom edge, as the title is in its top one: every line inside is the keys'.
        grid.put(" \(footer) ", x: inner.x - 1, y: inner.maxY, style: theme.dimmed, limit: layout.width + 2)
    }
}
