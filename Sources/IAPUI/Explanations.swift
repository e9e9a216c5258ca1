import Foundation
import IAPCore

/// The support-training overlays: one state explained, and the browsable list of every state.
extension Canvas {
    mutating func drawExplanation(stateId: String) {
        guard let entry = StateCatalog.entry(stateId) else { return }
        let inner = min(width - 6, 90)
        let origin = centredFrame(innerWidth: inner, innerHeight: height - 6, title: entry.title[lang])
        drawSections(entry, x: origin.x, y: origin.y, width: inner, lastRow: origin.y + height - 8)
        grid.put(Text.explainClose(lang), x: origin.x, y: origin.y + height - 7, style: theme.dimmed, limit: inner)
    }

    mutating func drawStateCatalog(selection: Int) {
        let entries = StateCatalog.entries
        let inner = min(width - 6, 110)
        let origin = centredFrame(innerWidth: inner, innerHeight: height - 6, title: Text.stateCatalogTitle(lang))
        let listWidth = 22
        let visible = height - 8
        let first = min(max(selection - visible / 2, 0), max(entries.count - visible, 0))
        for (offset, entry) in entries[first..<min(first + visible, entries.count)].enumerated() {
            let index = first + offset
            let style = index == selection ? theme.selected : theme.plain
            if index == selection { grid.fill(x: origin.x, y: origin.y + offset, width: listWidth, height: 1, style: style) }
            grid.put((index == selection ? "▸" : " ") + entry.title[lang], x: origin.x, y: origin.y + offset, style: style, limit: listWidth)
        }
        if entries.indices.contains(selection) {
            drawSections(entries[selection], x: origin.x + listWidth + 2, y: origin.y, width: inner - listWidth - 2,
                         lastRow: origin.y + visible - 1)
        }
        grid.put(Text.stateCatalogClose(lang), x: origin.x, y: origin.y + height - 7, style: theme.dimmed, limit: inner)
    }

    /// The four parts of an explanation, each a heading and wrapped text, down to `lastRow`.
    @discardableResult
    private mutating func drawSections(_ entry: StateExplanation, x: Int, y: Int, width w: Int, lastRow: Int) -> Int {
        var row = y
        let sections: [(Text, String)] = [
            (.explainSees, entry.sees[lang]), (.explainUnderneath, entry.underneath[lang]),
            (.explainSupport, entry.support[lang]), (.explainReach, entry.reach),
        ]
        for (heading, body) in sections where row <= lastRow {
            grid.put(heading(lang), x: x, y: row, style: theme.heading, limit: w)
            let lines = min(wrappedLineCount(body, width: w - 2), max(lastRow - row, 0))
            wrap(body, x: x + 2, y: row + 1, width: w - 2, lines: lines, style: theme.plain)
            row += 1 + lines + 1
        }
        return row
    }

    /// How many rows `wrap` needs for `text` at `w` columns (a CJK text wraps by character, not by word).
    func wrappedLineCount(_ text: String, width w: Int) -> Int {
        wrappedLines(text, width: w).count
    }
}
