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

    /// Expects `setlocale` to have been called and stdin/stdout to be a terminal.
    public init(monochrome: Bool) throws {
        let term = ProcessInfo.processInfo.environment["TERM"] ?? ""
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
        useColor = !monochrome && has_colors()
        if useColor {
            start_color()
            use_default_colors()
        }
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

    /// Copies the grid to the screen; ncurses sends only what changed since the last frame.
    public func draw(_ grid: ScreenGrid) {
        for y in 0..<grid.height {
            for x in 0..<grid.width {
                let cell = grid[x, y]
                if cell.text.isEmpty { continue }
                var chars = cell.text.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
                chars.append(0)
                _ = cnc_put_cell(Int32(y), Int32(x), chars, attributes(cell.style), pair(cell.style))
            }
        }
        refresh()
    }

    /// Waits up to `timeout` milliseconds for a key.
    public func nextEvent(timeout: Int32) -> TerminalEvent? {
        wtimeout(cnc_stdscr(), timeout)
        var ch: wint_t = 0
        let result = wget_wch(cnc_stdscr(), &ch)
        if result == ERR { return cnc_stdin_gone() != 0 ? .hangup : nil }
        if result == KEY_CODE_YES { return special(Int32(ch)) }
        switch ch {
        case 10, 13: return .key(.enter)
        case 27: return .key(.escape)
        case 9: return .key(.tab)
        case 8, 127: return .key(.backspace)
        default:
            guard let scalar = Unicode.Scalar(UInt32(ch)) else { return nil }
            return .key(.char(Character(scalar)))
        }
    }

    private func special(_ code: Int32) -> TerminalEvent? {
        switch code {
        case KEY_UP: .key(.up)
        case KEY_DOWN: .key(.down)
        case KEY_LEFT: .key(.left)
        case KEY_RIGHT: .key(.right)
        case KEY_ENTER: .key(.enter)
        case KEY_BACKSPACE: .key(.backspace)
        case cnc_key_resize(): .resize
        default: nil
        }
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
