/// The bottom row: the keys that work here, as many as fit whole.
struct HintBar: Widget {
    var hints: [(key: String, help: String)]
    var theme: Theme

    func draw(in area: Rect, on grid: inout ScreenGrid) {
        var x = area.x
        for (key, help) in hints {
            guard x + displayWidth(key) + 1 + displayWidth(help) + 2 <= area.maxX else { break }
            x += grid.put(key, x: x, y: area.y, style: theme.hintKey)
            x += grid.put(" " + help, x: x, y: area.y, style: theme.dimmed) + 2
        }
    }
}
