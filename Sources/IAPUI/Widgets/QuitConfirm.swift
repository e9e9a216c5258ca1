/// "Quit with a purchase in flight?" over the HUD it asks about.
struct QuitConfirm: Widget {
    var question: String
    var answers: String
    /// The HUD's content size, so that no edge of the HUD peeks out a row off; nil when there is none.
    var covering: (width: Int, height: Int)?
    var theme: Theme

    func draw(in area: Rect, on grid: inout ScreenGrid) {
        let size = covering ?? (width: 44, height: 3)
        let inner = Box(theme: theme).draw(aroundWidth: max(size.width, 44), height: size.height, centredIn: area, on: &grid)
        let top = (size.height - 3) / 2
        grid.putCentred(question, in: inner.row(top), style: theme.heading)
        grid.putCentred(answers, in: inner.row(top + 2), style: theme.dimmed)
    }
}
