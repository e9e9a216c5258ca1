/// One state explained for support: what the user sees, what happens underneath, what to do, how to reach it.
struct Explanation: Widget {
    struct Section {
        var heading: String
        var body: String
    }

    var sections: [Section]
    var theme: Theme
    /// Which page a small area shows, counted round: one past the last is the first.
    var page = 0

    /// Each section a heading and its text wrapped two columns in, a blank line between sections.
    private func lines(width: Int) -> [(text: String, indent: Int, style: Style)] {
        sections.enumerated().flatMap { index, section in
            [(section.heading, 0, theme.heading)] + wrappedLines(section.body, width: width - 2).map { ($0, 2, theme.plain) }
                + (index == sections.count - 1 ? [] : [("", 0, theme.plain)])
        }
    }

    /// Its lines in pages of the area's height, each beginning with words: a blank line that would open one is left out.
    private func pageLines(in area: Rect) -> [[(text: String, indent: Int, style: Style)]] {
        guard area.height > 0 else { return [[]] }
        var pages: [[(text: String, indent: Int, style: Style)]] = [[]]
        for line in lines(width: area.width) {
            if pages[pages.count - 1].count == area.height { pages.append([]) }
            if pages[pages.count - 1].isEmpty, line.text.isEmpty { continue }
            pages[pages.count - 1].append(line)
        }
        return pages
    }

    /// How many pages of the area it takes, and which one is shown (0 up).
    func pages(in area: Rect) -> (count: Int, shown: Int) {
        let count = pageLines(in: area).count
        return (count, shown(of: count))
    }

    /// `page` counted round `count` pages.
    private func shown(of count: Int) -> Int {
        (page % count + count) % count
    }

    func draw(in area: Rect, on grid: inout ScreenGrid) {
        let pages = pageLines(in: area)
        for (row, line) in pages[shown(of: pages.count)].enumerated() {
            grid.put(line.text, x: area.x + line.indent, y: area.y + row, style: line.style, limit: area.width - line.indent)
        }
    }
}

/// The explanation of one state, alone in a box named after it; under it how to close it, and, when it takes more
/// than one page, which page this is and how to turn them.
struct ExplanationBox: Widget {
    var title: String
    var explanation: Explanation
    var close: String
    var turn: String
    var theme: Theme

    func draw(in area: Rect, on grid: inout ScreenGrid) {
        let inner = Box(title: title, theme: theme)
            .draw(aroundWidth: min(area.width - 6, 90), height: area.height - 4, centredIn: area, on: &grid)
        let text = inner.splitBottom(1).rest
        explanation.draw(in: text, on: &grid)
        let pages = explanation.pages(in: text)
        let footer = pages.count > 1 ? "\(pages.shown + 1)/\(pages.count) · \(turn) · \(close)" : close
        grid.put(footer, x: inner.x, y: inner.maxY - 1, style: theme.dimmed, limit: inner.width)
    }
}
