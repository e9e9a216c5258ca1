/// The frame of every dialog: centred over what it interrupts, its inside cleared, an optional title in its top edge.
struct Box {
    var title: String?
    /// The theme's frame when nil.
    var style: Style?
    var theme: Theme

    /// Draws a box around `width`×`height` of content, centred in `area`, and returns where the content goes:
    /// two columns in from the sides, one row in from the edges.
    func draw(aroundWidth width: Int, height: Int, centredIn area: Rect, on grid: inout ScreenGrid) -> Rect {
        let box = area.centred(width: width + 4, height: height + 2)
        grid.frame(x: box.x, y: box.y, width: box.width, height: box.height, style: style ?? theme.frame, inside: theme.plain, title: title,
                   titleStyle: theme.heading)
        return box.inset(dx: 2, dy: 1)
    }
}

/// A row of buttons, centred, the focused one lit.
struct Buttons: Widget {
    var labels: [String]
    var focused: Int
    var theme: Theme

    func draw(in area: Rect, on grid: inout ScreenGrid) {
        let rendered = labels.map { "[ \($0) ]" }
        let total = rendered.reduce(0) { $0 + displayWidth($1) } + 4 * (rendered.count - 1)
        var x = area.x + max((area.width - total) / 2, 0)
        for (i, label) in rendered.enumerated() {
            x += grid.put(label, x: x, y: area.y, style: i == focused ? theme.focusedButton : theme.button) + 4
        }
    }
}

extension ScreenGrid {
    /// Writes `text` centred on the first row of `area`, cut to its width.
    mutating func putCentred(_ text: String, in area: Rect, style: Style) {
        let cut = truncated(text, to: area.width)
        put(cut, x: area.x + max((area.width - displayWidth(cut)) / 2, 0), y: area.y, style: style)
    }

    /// Word-wraps `text` into `area`, as many lines as it has rows.
    mutating func putWrapped(_ text: String, in area: Rect, style: Style) {
        for (row, line) in wrappedLines(text, width: area.width).prefix(area.height).enumerated() {
            put(line, x: area.x, y: area.y + row, style: style, limit: area.width)
        }
    }
}
