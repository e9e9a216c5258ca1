/// Splits `text` into rows of at most `w` columns: at spaces where it can, inside a word only when it must,
/// and never inside a wide character.
func wrappedLines(_ text: String, width w: Int) -> [String] {
    guard w > 0 else { return [] }
    var lines: [String] = []
    var line = ""
    var lastSpace: String.Index?
    for c in text {
        if displayWidth(line) + displayWidth(c) > w {
            if c == " " {
                lines.append(line)
                line = ""
                lastSpace = nil
                continue
            }
            // Break at the last space unless that strands most of the line (CJK text has no spaces to break at).
            if let space = lastSpace, displayWidth(String(line[line.index(after: space)...])) <= w / 3 {
                lines.append(String(line[..<space]))
                line = String(line[line.index(after: space)...])
            } else {
                lines.append(line)
                line = ""
            }
            lastSpace = nil
        }
        if c == " " { lastSpace = line.endIndex }
        line.append(c)
    }
    if !line.isEmpty { lines.append(line) }
    return lines
}
