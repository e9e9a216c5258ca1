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

    private typealias Line = (text: String, indent: Int, style: Style)

    /// Each section a heading and its text wrapped two columns in, a blank line between sections.
    private func lines(width: Int) -> [(line: Line, isHeading: Bool)] {
        sections.enumerated().flatMap { index, section in
            [((section.heading, 0, theme.heading), true)] + wrappedLines(section.body, width: width - 2).map { (($0, 2, theme.plain), false) }
                + (index == sections.count - 1 ? [] : [(("", 0, theme.plain), false)])
        }
    }

    /// Its lines in pages of the area's height, each beginning with words: a blank line that would open one is left out,
    /// and a heading that would end one goes over to the next with its first line.
    private func pageLines(in area: Rect) -> [[Line]] {
        guard area.height > 0 else { return [[]] }
        var pages: [[Line]] = [[]]
        for (line, isHeading) in lines(width: area.width) {
            let filled = pages[pages.count - 1].count
            let headingAtFoot = isHeading && filled == area.height - 1 && filled > 0
            if filled == area.height || headingAtFoot { pages.append([]) }
            if pages[pages.count - 1].isEmpty, line.text.isEmpty { continue }
            pages[pages.count - 1].append(line)
        }
        return pages
    }

    func draw(in area: Rect, on grid: inout ScreenGrid) {
        _ = drawPage(in: area, on: &grid)
    }

    /// Draws the page shown (`page` counted round); answers how many pages there are and which one that is (0 up).
    func drawPage(in area: Rect, on grid: inout ScreenGrid) -> (count: Int, shown: Int) {
        let pages = pageLines(in: area)
        let shown = (page % pages.count + pages.count) % pages.count
        for (row, line) in pages[shown].enumerated() {
            grid.put(line.text, x: area.x + line.indent, y: area.y + row, style: line.style, limit: area.width - line.indent)
        }
        return (pages.count, shown)
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
        let pages = explanation.drawPage(in: text, on: &grid)
        // What fits whole on its one row, in this order: the page, how to turn and close it, then the rest of the keys.
        let footer = pages.count > 1 ? "\(pages.shown + 1)/\(pages.count) · \(turn) · \(close)" : close
        grid.put(wrappedHint(footer, width: inner.width).first ?? "", x: inner.x, y: inner.maxY - 1, style: theme.dimmed, limit: inner.width)
    }
}
