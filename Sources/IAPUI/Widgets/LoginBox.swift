/// The login screen's box: the prompt, the name typed so far with its caret, and how to go on.
struct LoginBox: Widget {
    var prompt: String
    var text: String
    var hint: String
    var hintStyle: Style
    var theme: Theme

    func draw(in area: Rect, on grid: inout ScreenGrid) {
        let inner = Box(theme: theme).draw(aroundWidth: 40, height: 5, centredIn: area, on: &grid)
        grid.put(prompt, x: inner.x, y: inner.y + 1, style: theme.heading)
        let fieldX = inner.x + displayWidth(prompt) + 1
        let field = inner.maxX - fieldX
        grid.put(padded(truncatedAtFront(text + "▏", to: field), to: field), x: fieldX, y: inner.y + 1, style: Style(underline: true))
        grid.put(hint, x: inner.x, y: inner.y + 3, style: hintStyle, limit: inner.width)
    }
}
