/// Drawing into a rectangle rather than at a point.
extension ScreenGrid {
    /// Paints `area` with spaces in `style`.
    mutating func fill(_ area: Rect, style: Style) {
        fill(x: area.x, y: area.y, width: area.width, height: area.height, style: style)
    }

    /// Writes `text` centred on the first row of `area`, cut to its width.
    mutating func putCentred(_ text: String, in area: Rect, style: Style) {
        let cut = truncated(text, to: area.width)
        put(cut, x: area.x + max((area.width - displayWidth(cut)) / 2, 0), y: area.y, style: style)
    }
}
