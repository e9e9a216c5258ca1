/// The heads-up display: one wait or one outcome, centred over the list.
struct HUDBox: Widget {
    var headline: String
    var lines: [String]
    var footer: String
    var headlineStyle: Style
    var frameStyle: Style
    var theme: Theme

    /// The content's size in `area`: what a dialog over it (the quit question) takes to cover it exactly.
    func size(in area: Rect) -> (width: Int, height: Int) {
        // Canonical strings are never cut: the HUD grows to fit them (up to the screen).
        let widest = ([headline, footer] + lines).map(displayWidth).max() ?? 0
        return (min(max(44, widest + 4), area.width - 4), 4 + lines.count)
    }

    func draw(in area: Rect, on grid: inout ScreenGrid) {
        let size = size(in: area)
        let inner = Box(style: frameStyle, theme: theme).draw(aroundWidth: size.width, height: size.height, centredIn: area, on: &grid)
        grid.putCentred(headline, in: inner.row(1), style: headlineStyle)
        for (i, line) in lines.enumerated() {
            grid.putCentred(line, in: inner.row(2 + i), style: theme.plain)
        }
        grid.putCentred(footer, in: inner.row(3 + lines.count), style: theme.dimmed)
    }
}

/// What stands in the HUD's place while the products are requested.
struct LoadingBox: Widget {
    var text: String
    var theme: Theme

    func draw(in area: Rect, on grid: inout ScreenGrid) {
        let inner = Box(theme: theme).draw(aroundWidth: 36, height: 3, centredIn: area, on: &grid)
        grid.putCentred(text, in: inner.row(1), style: theme.waiting)
    }
}
