/// Terminal columns a character takes: 2 for East Asian wide and fullwidth characters, 0 for combining marks.
public func displayWidth(_ character: Character) -> Int {
    guard let scalar = character.unicodeScalars.first else { return 0 }
    let v = scalar.value
    if v < 0x300 { return v < 0x20 ? 0 : 1 }
    if scalar.properties.generalCategory == .nonspacingMark || scalar.properties.generalCategory == .enclosingMark { return 0 }
    if character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
    switch v {
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
         0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
         0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
        return 2
    default:
        return 1
    }
}

public func displayWidth(_ text: String) -> Int {
    text.reduce(0) { $0 + displayWidth($1) }
}

/// Cuts `text` to at most `width` columns, ending in "…" when cut; never splits a wide character.
public func truncated(_ text: String, to width: Int) -> String {
    guard width > 0 else { return "" }
    guard displayWidth(text) > width else { return text }
    var out = ""
    var used = 0
    for c in text {
        let w = displayWidth(c)
        if used + w > width - 1 { break }
        out.append(c)
        used += w
    }
    return out + "…"
}

/// Pads `text` with spaces to exactly `width` columns (cutting it first if needed).
public func padded(_ text: String, to width: Int, alignRight: Bool = false) -> String {
    let cut = truncated(text, to: width)
    let fill = String(repeating: " ", count: max(width - displayWidth(cut), 0))
    return alignRight ? fill + cut : cut + fill
}
