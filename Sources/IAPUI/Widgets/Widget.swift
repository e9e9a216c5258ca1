/// Something drawn into a rectangle of the grid from its own data, never from the app's state: what it shows can be
/// tested alone, from text lines.
protocol Widget {
    func draw(in area: Rect, on grid: inout ScreenGrid)
}
