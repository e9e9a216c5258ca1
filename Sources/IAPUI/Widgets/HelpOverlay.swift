/// Every key, in two columns so that the whole keymap fits the smallest screen.
struct HelpOverlay: Widget {
    var title: String
    var bindings: [(key: String, help: String)]
    var close: String
    var theme: Theme

    func draw(in area: Rect, on grid: inout ScreenGrid) {
        let width = min(area.width - 6, 100)
        let perColumn = (bindings.count + 1) / 2
        let column = width / 2
        let inner = Box(title: title, theme: theme).draw(aroundWidth: width, height: perColumn + 2, centredIn: area, on: &grid)
        let keyWidth = (bindings.map { displayWidth($0.key) }.max() ?? 5) + 1
        for (i, binding) in bindings.enumerated() {
            let x = inner.x + (i / perColumn) * column, y = inner.y + i % perColumn
            grid.put(binding.key, x: x, y: y, style: theme.hintKey)
            grid.put(binding.help, x: x + keyWidth, y: y, style: theme.plain, limit: column - keyWidth - 1)
        }
        grid.put(close, x: inner.x, y: inner.y + perColumn + 1, style: theme.dimmed)
    }
}
