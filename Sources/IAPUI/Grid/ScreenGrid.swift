import Foundation

/// A screen of cells that widgets draw into; the terminal layer only copies it out.
public struct ScreenGrid: Sendable, Equatable {
    /// One column: plain bits, so that a frame's thousands of cells are made, copied and compared as memory is, with
    /// no reference counting (a `String` per cell made each of them a call into the runtime).
    public struct Cell: Sendable, Equatable {
        /// The character's one Unicode scalar; `rightHalf` for the right half of a wide character; past the last scalar,
        /// a character of several scalars by its number in `Clusters`.
        private var code: UInt32
        public var style: Style

        private static let rightHalf: UInt32 = 0
        private static let firstCluster: UInt32 = 0x11_0000

        init(_ scalar: Unicode.Scalar, style: Style) {
            code = scalar.value
            self.style = style
        }

        /// `text`: one scalar that takes columns and the zero-width ones after it (see `ScreenGrid.drawnParts`).
        init(_ text: String, style: Style) {
            var scalars = text.unicodeScalars.makeIterator()
            if let first = scalars.next(), scalars.next() == nil {
                code = first.value
            } else {
                code = Self.firstCluster + Clusters.shared.number(of: text)
            }
            self.style = style
        }

        static func rightHalf(_ style: Style) -> Cell {
            var cell = Cell(" ", style: style)
            cell.code = rightHalf
            return cell
        }

        /// One character, or "" for the right half of a wide character.
        public var text: String {
            if let scalar { return String(Character(scalar)) }
            return code == Self.rightHalf ? "" : Clusters.shared.text(code - Self.firstCluster)
        }

        /// The character when it is one scalar (most are); nil for the right half of a wide character or a character of
        /// several scalars (`text`).
        public var scalar: Unicode.Scalar? {
            code == Self.rightHalf || code >= Self.firstCluster ? nil : Unicode.Scalar(code)
        }

        public var isRightHalf: Bool { code == Self.rightHalf }

        mutating func blank() { code = 0x20 }
    }

    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]

    public init(width: Int, height: Int) {
        self.width = max(width, 0)
        self.height = max(height, 0)
        cells = Array(repeating: Cell(" ", style: .plain), count: self.width * self.height)
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
            var scalars = character.unicodeScalars.makeIterator()
            if let only = scalars.next(), scalars.next() == nil {
                place(Cell(only, style: style), columns: w, x: column, y: y)
            } else {
                // Its parts' columns add up to the character's: those left out take none.
                var at = column
                for (part, columns) in Self.drawnParts(character) {
                    place(Cell(part, style: style), columns: columns, x: at, y: y)
                    at += columns
                }
            }
            column += w
        }
        return column - x
    }

    private mutating func place(_ cell: Cell, columns: Int, x: Int, y: Int) {
        clearWide(at: x, y: y)
        cells[y * width + x] = cell
        if columns == 2 {
            clearWide(at: x + 1, y: y)
            cells[y * width + x + 1] = .rightHalf(cell.style)
        }
    }

    /// A character of several scalars as ncurses draws it: a cell holds one scalar that takes columns and the
    /// zero-width ones after it, and ncurses drops the rest of what it is given. So each scalar that takes columns
    /// starts a cell of its own (👍🏽 is 👍 and 🏽, का is क and ा, as many columns as they are counted), and a
    /// zero-width scalar before any of them, which no cell could draw, is left out. So is a zero-width joiner: a
    /// terminal such as tmux draws a joined sequence (👨‍👩‍👧) as one glyph two columns wide where ncurses counts each
    /// emoji's, and the rest of the row would move under ncurses' feet; apart, they take the columns counted.
    static func drawnParts(_ character: Character) -> [(String, Int)] {
        var parts: [(scalars: String.UnicodeScalarView, columns: Int)] = []
        for scalar in character.unicodeScalars where scalar != "\u{200D}" {
            let columns = displayWidth(scalar)
            if columns > 0 {
                parts.append((String.UnicodeScalarView([scalar]), columns))
            } else if !parts.isEmpty {
                parts[parts.count - 1].scalars.append(scalar)
            }
        }
        return parts.map { (String($0.scalars), $0.columns) }
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
            (0..<width).reduce(into: "") { line, x in
                let cell = self[x, y]
                if let scalar = cell.scalar { line.unicodeScalars.append(scalar) } else { line += cell.text }
            }
        }
    }

    public var text: String { lines.joined(separator: "\n") }

    /// Overwriting half of a wide character blanks its other half, as a terminal does.
    private mutating func clearWide(at x: Int, y: Int) {
        guard x < width else { return }
        let i = y * width + x
        // A wide character's right half is always the cell after it.
        if cells[i].isRightHalf, x > 0 {
            cells[i - 1].blank()
        } else if x + 1 < width, cells[i + 1].isRightHalf {
            cells[i + 1].blank()
        }
    }
}

/// The characters of several scalars the app has drawn (an emoji with a modifier or a joiner, a letter with a combining
/// mark), each kept once for the life of the process, so that a cell holds a number rather than a string. Kept by their
/// bytes: `String`'s equality is canonical equivalence, which would draw a character with the scalars of an equivalent
/// one drawn before it.
final class Clusters: @unchecked Sendable {
    static let shared = Clusters()
    private let lock = NSLock()
    private var texts: [String] = []
    private var numbers: [[UInt8]: UInt32] = [:]

    func number(of text: String) -> UInt32 {
        let bytes = Array(text.utf8)
        lock.lock()
        defer { lock.unlock() }
        if let number = numbers[bytes] { return number }
        let number = UInt32(texts.count)
        texts.append(text)
        numbers[bytes] = number
        return number
    }

    func text(_ number: UInt32) -> String {
        lock.lock()
        defer { lock.unlock() }
        return texts[Int(number)]
    }
}
