/// How one cell looks. Colours are optional so that a monochrome theme can leave them out.
public struct Style: Hashable, Sendable {
    public enum Color: Int, Sendable, CaseIterable {
        case black, red, green, yellow, blue, magenta, cyan, white
    }

    public var fg: Color?
    public var bg: Color?
    public var bold = false
    public var reverse = false
    public var underline = false
    public var dim = false

    public init(fg: Color? = nil, bg: Color? = nil, bold: Bool = false, reverse: Bool = false, underline: Bool = false, dim: Bool = false) {
        self.fg = fg
        self.bg = bg
        self.bold = bold
        self.reverse = reverse
        self.underline = underline
        self.dim = dim
    }

    public static let plain = Style()
}

/// The roles a screen paints with; each theme gives them a look.
public struct Theme: Sendable {
    public let plain: Style
    public let titleBar: Style
    public let selected: Style
    public let dimmed: Style
    public let frame: Style
    public let heading: Style
    public let good: Style
    public let bad: Style
    public let waiting: Style
    public let badge: Style
    public let hintKey: Style
    public let button: Style
    public let focusedButton: Style
    /// Set when the terminal's locale is not UTF-8: every text is drawn through this fallback.
    public var ascii: ASCIIText?

    public static let color = Theme(
        plain: .plain,
        titleBar: Style(fg: .white, bg: .blue, bold: true),
        selected: Style(fg: .black, bg: .cyan),
        dimmed: Style(dim: true),
        frame: Style(fg: .cyan),
        heading: Style(bold: true),
        good: Style(fg: .green, bold: true),
        bad: Style(fg: .red, bold: true),
        waiting: Style(fg: .yellow, bold: true),
        badge: Style(fg: .black, bg: .yellow, bold: true),
        hintKey: Style(fg: .cyan, bold: true),
        button: .plain,
        focusedButton: Style(fg: .black, bg: .cyan, bold: true)
    )

    /// NO_COLOR: reverse, bold, underline and dim only.
    public static let monochrome = Theme(
        plain: .plain,
        titleBar: Style(reverse: true),
        selected: Style(reverse: true),
        dimmed: Style(dim: true),
        frame: .plain,
        heading: Style(bold: true),
        good: Style(bold: true),
        bad: Style(bold: true, underline: true),
        waiting: Style(bold: true),
        badge: Style(bold: true, reverse: true),
        hintKey: Style(bold: true),
        button: .plain,
        focusedButton: Style(reverse: true)
    )
}
