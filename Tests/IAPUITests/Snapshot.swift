import Foundation
import IAPUI
import Testing

/// Compares a whole screen (text, then the colour and monochrome style runs) with the file under Snapshots/.
/// `RECORD_SNAPSHOTS=1` writes the files instead; a missing file fails so that CI never records.
func assertSnapshot(_ name: String, color: ScreenGrid, monochrome: ScreenGrid, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let actual = color.text + "\n\n-- colour --\n" + styleRuns(color) + "\n-- monochrome --\n" + styleRuns(monochrome)
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots/\(name).txt")
    if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
        try actual.write(to: url, atomically: true, encoding: .utf8)
        return
    }
    guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
        Issue.record("no snapshot \(url.path); run with RECORD_SNAPSHOTS=1 to write it", sourceLocation: sourceLocation)
        return
    }
    #expect(actual == expected, "screen \(name) differs from its snapshot", sourceLocation: sourceLocation)
}

/// Each row's runs of non-plain style, as `row col-col: style`.
func styleRuns(_ grid: ScreenGrid) -> String {
    var out = ""
    for y in 0..<grid.height {
        var x = 0
        while x < grid.width {
            let style = grid[x, y].style
            var end = x
            while end + 1 < grid.width, grid[end + 1, y].style == style { end += 1 }
            if style != .plain { out += "\(y) \(x)-\(end): \(describe(style))\n" }
            x = end + 1
        }
    }
    return out
}

private func describe(_ style: Style) -> String {
    var parts: [String] = []
    if let fg = style.fg { parts.append("fg=\(fg)") }
    if let bg = style.bg { parts.append("bg=\(bg)") }
    if style.bold { parts.append("bold") }
    if style.reverse { parts.append("reverse") }
    if style.underline { parts.append("underline") }
    if style.dim { parts.append("dim") }
    return parts.joined(separator: " ")
}
