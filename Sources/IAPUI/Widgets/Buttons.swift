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
