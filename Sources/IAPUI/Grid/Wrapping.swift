/// What a row may not start with, and what it may not end with (Chinese line-breaking rules).
private let closing: Set<Character> = ["”", "’", "」", "』", "）", "》", "〉", "】", "〕", "。", "，", "、", "；", "：", "！", "？", "…",
                                        ")", ",", ".", ";", ":", "!", "?"]
private let opening: Set<Character> = ["“", "‘", "「", "『", "（", "《", "〈", "【", "〔", "("]

/// Splits `text` into rows of at most `w` columns: at a space, or between two characters one of which is wide (Chinese
/// has no spaces to break at) unless that leaves a closing quote or stop at a row's start or an opening quote at its end,
/// and inside a word only when the word alone is wider than a row; never inside a wide character. A command in
/// backquotes (`family sandbox-1 sandbox-2`) is one word.
func wrappedLines(_ text: String, width w: Int) -> [String] {
    guard w > 0 else { return [] }
    var lines: [String] = []
    var line = ""
    var lineWidth = 0
    // Where the line may end: at a space (which the break takes away), or before or after a wide character.
    var breakAt: (index: String.Index, atSpace: Bool)?
    // A backquote opens a command only when another closes it.
    var backquotesLeft = text.count { $0 == "`" }
    var inCommand = false
    for c in text {
        let cw = displayWidth(c)
        let wasInCommand = inCommand
        if c == "`" {
            backquotesLeft -= 1
            inCommand = !inCommand && backquotesLeft > 0
        }
        if c == " ", !wasInCommand {
            // A space that does not fit is the break itself.
            if lineWidth + cw > w {
                lines.append(line)
                (line, lineWidth, breakAt) = ("", 0, nil)
                continue
            }
            breakAt = (line.endIndex, true)
        } else {
            if !wasInCommand, let last = line.last, last != " ", cw == 2 || displayWidth(last) == 2, !closing.contains(c), !opening.contains(last) {
                breakAt = (line.endIndex, false)
            }
            while lineWidth + cw > w, !line.isEmpty {
                if let at = breakAt {
                    lines.append(String(line[..<at.index]))
                    line = String(line[(at.atSpace ? line.index(after: at.index) : at.index)...])
                } else {
                    lines.append(line)
                    line = ""
                }
                lineWidth = displayWidth(line)
                breakAt = nil
            }
        }
        line.append(c)
        lineWidth += cw
    }
    if !line.isEmpty { lines.append(line) }
    return lines
}

/// A key hint ("Enter choose · Esc close") in rows of at most `w` columns: a row breaks at a " · ", which the break takes
/// away, so that a key and what it does stay together; a part wider than a row is wrapped as text.
func wrappedHint(_ hint: String, width w: Int) -> [String] {
    var lines: [String] = []
    for part in hint.split(separator: " · ", omittingEmptySubsequences: false).map(String.init) {
        if let last = lines.last, displayWidth(last) + 3 + displayWidth(part) <= w {
            lines[lines.count - 1] = last + " · " + part
        } else {
            lines += wrappedLines(part, width: w)
        }
    }
    return lines
}
