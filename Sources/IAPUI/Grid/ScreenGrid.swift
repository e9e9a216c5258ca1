/// A screen of cells that widgets draw into; the terminal layer only copies it out.
public struct ScreenGrid: Sendable, Equatable {
    public struct Cell: Sendable, Equatable {
        /// One character, or "" for the right half of a wide character.
        public var text: String
        public var style: Style
    }

    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]

    public init(width: Int, height: Int) {
        self.width = max(width, 0)
        self.height = max(height, 0)
        cells = Array(repeating: Cell(text: " ", style: .plain), count: self.width * self.height)
    }

    public subscript(x: Int, y: Int) -> Cell {
        cells[y * width + x]
    }

    /// Writes `text` from column `x` on row `y`, stopping at `limit` columns (or the edge); returns the columns used.
    /// Text cut to fit ends in "…", so that nobody takes a cut word for the whole one (trailing spaces are just dropped).
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, style: Style, limit: Int? = nil) -> Int {
        guard y >= 0, y < height, x >= 0 else { return 0 }
        let end = min(width, x + (limit ?? width))
        var text = ASCIIText.shown(text)
        // Columns never exceed UTF-8 bytes, so most text skips the measuring.
        if text.utf8.count > end - x, displayWidth(text) > end - x {
            var trimmed = Substring(text)
            while trimmed.last == " " { trimmed.removeLast() }
            if displayWidth(String(trimmed)) > end - x { text = truncated(String(trimmed), to: end - x) }
        }
        var column = x
        for character in text {
            let w = displayWidth(character)
            if w == 0 { continue }
            if column + w > end { break }
            if w == 2 {
                clearWide(at: column, y: y)
                clearWide(at: column + 1, y: y)
                cells[y * width + column] = Cell(text: String(character), style: style)
                cells[y * width + column + 1] = Cell(text: "", style: style)
            } else {
                clearWide(at: column, y: y)
                cells[y * width + column] = Cell(text: String(character), style: style)
            }
            column += w
        }
        return column - x
    }

    /// Paints a rectangle with spaces in `style`.
    public mutating func fill(x: Int, y: Int, width w: Int, height h: Int, style: Style) {
        for row in max(y, 0)..<min(y + h, height) {
            put(String(repeating: " ", count: max(min(w, width - x), 0)), x: x, y: row, style: style)
        }
    }

    /// A box-drawn frame whose inside is cleared, with an optional title in its top edge.
    public mutating func frame(x: Int, y: Int, width w: Int, height h: Int, style: Style, inside: Style, title: String? = nil, titleStyle: Style? = nil) {
        guard w >= 2, h >= 2 else { return }
        fill(x: x, y: y, width: w, height: h, style: inside)
        put("┌" + String(repeating: "─", count: w - 2) + "┐", x: x, y: y, style: style)
        for row in (y + 1)..<(y + h - 1) {
            put("│", x: x, y: row, style: style)
            put("│", x: x + w - 1, y: row, style: style)
        }
        put("└" + String(repeating: "─", count: w - 2) + "┘", x: x, y: y + h - 1, style: style)
        if let title {
            put(" \(truncated(title, to: w - 6)) ", x: x + 2, y: y, style: titleStyle ?? style)
        }
    }

    /// The screen as text, one line per row, trailing spaces kept so that widths are visible.
    public var lines: [String] {
        (0..<height).map { y in
            (0..<width).reduce(into: "") { line, x in line += self[x, y].text }
        }
    }

    public var text: String { lines.joined(separator: "\n") }

    /// Overwriting half of a wide character blanks its other half, as a terminal does.
    private mutating func clearWide(at x: Int, y: Int) {
        guard x < width else { return }
        let i = y * width + x
        if cells[i].text.isEmpty, x > 0 {
            cells[i - 1].text = " "
        } else if let c = cells[i].text.first, displayWidth(c) == 2, x + 1 < width {
            cells[i + 1].text = " "
        }
    }
}
