import CTextWidth

/// Terminal columns a character takes, as the C library's `wcwidth` counts them (which is how ncurses and the terminal
/// place it): the sum over its code points, so that a combining mark or a variation selector adds nothing and an
/// emoji or a CJK character takes two. A code point `wcwidth` does not know takes one column, a control none.
public func displayWidth(_ character: Character) -> Int {
    character.unicodeScalars.reduce(0) { $0 + displayWidth($1) }
}

/// One code point's columns, as `wcwidth` counts them (see the character's).
func displayWidth(_ scalar: Unicode.Scalar) -> Int {
    let v = scalar.value
    if v < 0x7F { return v < 0x20 ? 0 : 1 }
    let width = iapsim_wcwidth(v)
    return width >= 0 ? Int(width) : (v < 0xA0 ? 0 : 1)
}

public func displayWidth(_ text: String) -> Int {
    ASCIIText.shown(text).reduce(0) { $0 + displayWidth($1) }
}

/// Cuts `text` to at most `width` columns, ending in "…" when cut; never splits a wide character.
public func truncated(_ text: String, to width: Int) -> String {
    guard width > 0 else { return "" }
    let text = ASCIIText.shown(text)
    guard displayWidth(text) > width else { return text }
    let ellipsis = ASCIIText.shown("…")
    guard width > displayWidth(ellipsis) else { return String(ellipsis.prefix(width)) }
    var out = ""
    var used = 0
    for c in text {
        let w = displayWidth(c)
        if used + w > width - displayWidth(ellipsis) { break }
        out.append(c)
        used += w
    }
    return out + ellipsis
}

/// Cuts `text` to at most `width` columns from the front, starting with "…" when cut: a field being typed into keeps
/// its end, where the cursor is, in view.
public func truncatedAtFront(_ text: String, to width: Int) -> String {
    String(truncated(String(text.reversed()), to: width).reversed())
}

/// Pads `text` with spaces to exactly `width` columns (cutting it first if needed).
public func padded(_ text: String, to width: Int, alignRight: Bool = false) -> String {
    let cut = truncated(ASCIIText.shown(text), to: width)
    let fill = String(repeating: " ", count: max(width - displayWidth(cut), 0))
    return alignRight ? fill + cut : cut + fill
}
