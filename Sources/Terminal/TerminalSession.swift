import CNcursesw
import Foundation
import IAPCore
import IAPUI

public enum TerminalEvent: Equatable {
    case key(Key)
    case resize
    /// The terminal went away; the app should save nothing more and leave.
    case hangup
}

public struct TerminalError: Error, CustomStringConvertible {
    public let description: String
}

/// The only code that calls ncurses: set-up and teardown, copying a grid out, reading keys.
public final class TerminalSession {
    private let screen: OpaquePointer
    private let useColor: Bool
    private var pairs: [Int: Int16] = [:]
    private var closed = false
    /// What ncurses' screen holds: blank at the start, then the last grid drawn; nil once a resize makes a new screen.
    /// A frame writes only the cells that differ from it.
    private var shown: ScreenGrid?

    /// Whether this terminal can run the app, checked before anything else is touched: TERM set, known, and able to
    /// move the cursor (a `dumb` terminal would get one row, and keys acting on a screen nobody sees).
    public static func check() throws {
        let term = Self.environment("TERM")
        guard !term.isEmpty else { throw TerminalError(description: "TERM is not set; iapsim needs a terminal type (e.g. TERM=xterm-256color)") }
        switch cnc_term_can_address_cursor(term) {
        case 1: return
        case 0: throw TerminalError(description: "terminal type \"\(term)\" cannot move the cursor, so iapsim cannot draw its screen; run it in a full terminal (e.g. TERM=xterm-256color)")
        default: throw TerminalError(description: "unknown terminal type \"\(term)\"; set TERM to one this system knows (e.g. xterm-256color)")
        }
    }

    /// The variable's value, "" when unset. `getenv`, not `ProcessInfo`, whose first use copies the whole environment
    /// into a dictionary at launch.
    public static func environment(_ name: String) -> String {
        getenv(name).map { String(cString: $0) } ?? ""
    }

    /// SIGINT or SIGTERM, once one has arrived: the app should restore the terminal and exit with 128 + N.
    /// Read here, beside `cnc_catch_quit_signals` in `init`: the shim's flag is a `static` in a header, one per object file.
    public var caughtSignal: Int32? {
        let number = cnc_caught_signal()
        return number == 0 ? nil : number
    }

    /// Expects `setlocale` to have been called and stdin/stdout to be a terminal.
    public init(monochrome: Bool) throws {
        let term = Self.environment("TERM")
        guard !term.isEmpty else { throw TerminalError(description: "TERM is not set; iapsim needs a terminal type (e.g. TERM=xterm-256color)") }
        guard let screen = newterm(term, cnc_stdout(), cnc_stdin()) else {
            throw TerminalError(description: "unknown terminal type \"\(term)\"")
        }
        self.screen = screen
        cbreak()
        noecho()
        keypad(cnc_stdscr(), true)
        set_escdelay(25)
        curs_set(0)
        // After newterm, so that ours replace the handlers ncurses installs (which exit with status 1).
        cnc_catch_quit_signals()
        useColor = !monochrome && has_colors()
        if useColor {
            start_color()
            use_default_colors()
        }
        shown = ScreenGrid(width: Int(cnc_cols()), height: Int(cnc_lines()))
    }

    deinit { close() }

    public func close() {
        guard !closed else { return }
        closed = true
        endwin()
        delscreen(screen)
    }

    public var size: (width: Int, height: Int) {
        (Int(cnc_cols()), Int(cnc_lines()))
    }

    /// Copies the grid to the screen; ncurses sends only what changed since the last frame. Only the cells that differ
    /// from what its screen holds are written into it: most of a frame is what the one before drew (the launch screen
    /// is mostly blank). One buffer for every cell's characters, and the attributes of the last style seen (neighbours
    /// mostly share one): a frame is thousands of cells, and a fresh array and a colour-pair lookup for each were most
    /// of the time spent here.
    public func draw(_ grid: ScreenGrid) {
        var chars: [wchar_t] = []
        chars.reserveCapacity(8)
        var lastStyle: Style?
        var attrs = cnc_a_normal()
        var colorPair: Int16 = 0
        let before = shown.flatMap { $0.width == grid.width && $0.height == grid.height ? $0.cells : nil }
        for row in 0..<grid.height {
            let cells = row * grid.width ..< (row + 1) * grid.width
            if let before, Self.sameBytes(before, grid.cells, in: cells) { continue }
            for index in cells where !grid.cells[index].isRightHalf {
                let cell = grid.cells[index]
                if let before, before[index] == cell { continue }
                if cell.style != lastStyle {
                    lastStyle = cell.style
                    attrs = attributes(cell.style)
                    colorPair = pair(cell.style)
                }
                chars.removeAll(keepingCapacity: true)
                if let scalar = cell.scalar {
                    chars.append(wchar_t(bitPattern: scalar.value))
                } else {
                    for scalar in cell.text.unicodeScalars { chars.append(wchar_t(bitPattern: scalar.value)) }
                }
                chars.append(0)
                _ = cnc_put_cell(Int32(row), Int32(index - cells.lowerBound), chars, attrs, colorPair)
            }
        }
        shown = grid
        refresh()
    }

    /// Whether two frames hold the same bytes over `cells`: a row left as it was (most rows of most frames) is passed
    /// over whole rather than cell by cell. Different bytes can still be equal cells (padding), which the cells' own
    /// comparison then finds.
    private static func sameBytes(_ a: [ScreenGrid.Cell], _ b: [ScreenGrid.Cell], in cells: Range<Int>) -> Bool {
        guard !cells.isEmpty else { return true }
        return a.withUnsafeBytes { a in
            b.withUnsafeBytes { b in
                let stride = MemoryLayout<ScreenGrid.Cell>.stride
                return memcmp(a.baseAddress! + cells.lowerBound * stride, b.baseAddress! + cells.lowerBound * stride, cells.count * stride) == 0
            }
        }
    }

    /// Waits up to `timeout` milliseconds for a key.
    public func nextEvent(timeout: Int32) -> TerminalEvent? {
        wtimeout(cnc_stdscr(), timeout)
        var ch: wint_t = 0
        let result = wget_wch(cnc_stdscr(), &ch)
        if result == ERR { return cnc_stdin_gone() != 0 ? .hangup : nil }
        if result == KEY_CODE_YES {
            let event = special(Int32(ch))
            // ncurses made a screen of the new size: what it holds is no longer the last grid.
            if event == .resize { shown = nil }
            return event
        }
        switch ch {
        case 10, 13: return .key(.enter)
        case 27: return escapeSequence()
        case 9: return .key(.tab)
        case 8, 127: return .key(.backspace)
        default:
            guard let scalar = Unicode.Scalar(UInt32(ch)) else { return nil }
            return .key(.char(Character(scalar)))
        }
    }

    /// Esc alone, or the rest of a keypad sequence terminfo did not name (`ESC O M` is keypad Enter, `ESC O q` keypad 1):
    /// its bytes are already waiting, so they are read without waiting; a key the app does not know is dropped, never
    /// taken for Esc and letters.
    private func escapeSequence() -> TerminalEvent? {
        wtimeout(cnc_stdscr(), 0)
        var next: wint_t = 0
        let result = wget_wch(cnc_stdscr(), &next)
        if result == ERR { return .key(.escape) }
        if result == KEY_CODE_YES {
            ungetch(Int32(next))
            return .key(.escape)
        }
        guard next == 79 else {  // not "O": Esc, then a key of its own
            unget_wch(wchar_t(bitPattern: next))
            return .key(.escape)
        }
        var final: wint_t = 0
        guard wget_wch(cnc_stdscr(), &final) == OK, let scalar = Unicode.Scalar(UInt32(final)) else { return nil }
        return Self.keypadKey(Character(scalar)).map(TerminalEvent.key)
    }

    /// The key an SS3 sequence (`ESC O x`) stands for: the keypad in application mode, and cursor keys.
    static func keypadKey(_ final: Character) -> Key? {
        switch final {
        case "M": .enter
        case "A": .up
        case "B": .down
        case "C": .right
        case "D": .left
        case "p"..."y": .char(Character(Unicode.Scalar(final.asciiValue! - Character("p").asciiValue! + Character("0").asciiValue!)))
        case "j": .char("*")
        case "k": .char("+")
        case "l": .char(",")
        case "m": .char("-")
        case "n": .char(".")
        case "o": .char("/")
        case "X": .char("=")
        default: nil
        }
    }

    private func special(_ code: Int32) -> TerminalEvent? {
        switch code {
        // The keypad's corners and centre, as terminfo names them, are its digits.
        case KEY_A1: .key(.char("7"))
        case KEY_A3: .key(.char("9"))
        case KEY_B2: .key(.char("5"))
        case KEY_C1: .key(.char("1"))
        case KEY_C3: .key(.char("3"))
        case KEY_UP: .key(.up)
        case KEY_PPAGE: .key(.pageUp)
        case KEY_NPAGE: .key(.pageDown)
        case KEY_HOME: .key(.home)
        case KEY_END: .key(.end)
        case KEY_DOWN: .key(.down)
        case KEY_LEFT: .key(.left)
        case KEY_RIGHT: .key(.right)
        case KEY_ENTER: .key(.enter)
        case KEY_BACKSPACE: .key(.backspace)
        case cnc_key_resize(): .resize
        default: Self.namedKeypadKey(code).map(TerminalEvent.key)
        }
    }

    /// Keypad keys terminfo knows by an extended name (xterm's `kc2` is keypad 2, `kpADD` its +): ncurses gives
    /// them codes of their own, found by name.
    private static func namedKeypadKey(_ code: Int32) -> Key? {
        guard let name = keyname(code).map({ String(cString: $0) }) else { return nil }
        let digits = ["kc1": "1", "kc2": "2", "kc3": "3", "kb1": "4", "kb2": "5", "kb3": "6", "ka1": "7", "ka2": "8", "ka3": "9",
                      "kpZRO": "0", "kpDOT": ".", "kpCMA": ",", "kpADD": "+", "kpSUB": "-", "kpMUL": "*", "kpDIV": "/", "kpEQL": "="]
        return digits[name].flatMap(\.first).map(Key.char)
    }

    private func attributes(_ style: Style) -> attr_t {
        var attrs = cnc_a_normal()
        if style.bold { attrs |= cnc_a_bold() }
        if style.reverse { attrs |= cnc_a_reverse() }
        if style.underline { attrs |= cnc_a_underline() }
        if style.dim { attrs |= cnc_a_dim() }
        return attrs
    }

    /// Colour pairs are made on first use; pair 0 is the terminal's default.
    private func pair(_ style: Style) -> Int16 {
        guard useColor, style.fg != nil || style.bg != nil else { return 0 }
        let key = (style.fg?.rawValue ?? -1) * 16 + (style.bg?.rawValue ?? -1)
        if let known = pairs[key] { return known }
        let number = Int16(pairs.count + 1)
        init_pair(number, Int16(style.fg?.rawValue ?? -1), Int16(style.bg?.rawValue ?? -1))
        pairs[key] = number
        return number
    }
}
