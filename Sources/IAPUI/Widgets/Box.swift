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
