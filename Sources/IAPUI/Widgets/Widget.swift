/// Something drawn into a rectangle of the grid from its own data, never from the app's state: what it shows can be
/// tested alone, from text lines.
protocol Widget {
    func draw(in area: Rect, on grid: inout ScreenGrid)
}

extension Widget {
    /// The widget alone on a grid of the area's size: what the widget tests compare.
    func rendered(width: Int, height: Int) -> ScreenGrid {
        var grid = ScreenGrid(width: width, height: height)
        draw(in: Rect(width: width, height: height), on: &grid)
        return grid
    }
}
