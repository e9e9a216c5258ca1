/// A rectangle of the grid, in columns and rows: where a widget may draw.
struct Rect: Equatable, Sendable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    init(x: Int = 0, y: Int = 0, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(width, 0)
        self.height = max(height, 0)
    }

    /// The first column and row past the rectangle.
    var maxX: Int { x + width }
    var maxY: Int { y + height }

    /// The rectangle less `dx` columns on each side and `dy` rows above and below.
    func inset(dx: Int = 0, dy: Int = 0) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width - 2 * dx, height: height - 2 * dy)
    }

    /// Row `i` of the rectangle, as a rectangle one row high.
    func row(_ i: Int) -> Rect {
        Rect(x: x, y: y + i, width: width, height: 1)
    }

    /// The first `rows` rows, and what is left below them.
    func splitTop(_ rows: Int) -> (top: Rect, rest: Rect) {
        let rows = min(max(rows, 0), height)
        return (Rect(x: x, y: y, width: width, height: rows), Rect(x: x, y: y + rows, width: width, height: height - rows))
    }

    /// The last `rows` rows, and what is left above them.
    func splitBottom(_ rows: Int) -> (rest: Rect, bottom: Rect) {
        let rows = min(max(rows, 0), height)
        return (Rect(x: x, y: y, width: width, height: height - rows), Rect(x: x, y: maxY - rows, width: width, height: rows))
    }

    /// The first `columns` columns, and what is left to their right.
    func splitLeft(_ columns: Int) -> (left: Rect, rest: Rect) {
        let columns = min(max(columns, 0), width)
        return (Rect(x: x, y: y, width: columns, height: height), Rect(x: x + columns, y: y, width: width - columns, height: height))
    }

    /// A rectangle of at most the given size, centred (rounding up and left).
    func centred(width w: Int, height h: Int) -> Rect {
        let w = min(w, width), h = min(h, height)
        return Rect(x: x + (width - w) / 2, y: y + (height - h) / 2, width: w, height: h)
    }
}
