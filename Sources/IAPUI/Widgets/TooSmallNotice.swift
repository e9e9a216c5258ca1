import Foundation

/// What a terminal below the minimum size shows instead of the app: the size it needs, wrapped to what there is.
struct TooSmallNotice: Widget {
    var message: String
    var style: Style

    func draw(in area: Rect, on grid: inout ScreenGrid) {
        for (y, line) in wrappedLines(message, width: area.width).prefix(area.height).enumerated() {
            grid.put(line.trimmingCharacters(in: .whitespaces), x: area.x, y: area.y + y, style: style)
        }
    }
}
