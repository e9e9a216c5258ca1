/// The bottom row: the keys that work here. All of them when they fit, two spaces apart, or else one; when even that
/// is too wide, the others are left out, first ones first (the keymap lists moving first), before the ones it keeps:
/// the screen's own action (Enter), the way back (Esc) and the ways out (`?`, which lists every key, and `q`); then
/// those too, first ones first, so that `?` and `q` stay in sight longest.
struct HintBar: Widget {
    var hints: [(key: String, help: String, kept: Bool)]
    var theme: Theme

    func draw(in area: Rect, on grid: inout ScreenGrid) {
        let widths = hints.map { displayWidth($0.key) + 1 + displayWidth($0.help) }
        func fits(_ shown: [Int], gap: Int) -> Bool { shown.reduce(0) { $0 + widths[$1] + gap } <= area.width }
        var shown = Array(hints.indices)
        for kept in [false, true] {
            while !fits(shown, gap: 1), let first = shown.firstIndex(where: { hints[$0].kept == kept }) { shown.remove(at: first) }
        }
        let gap = fits(shown, gap: 2) ? 2 : 1
        var x = area.x
        for index in shown {
            x += grid.put(hints[index].key, x: x, y: area.y, style: theme.hintKey)
            x += grid.put(" " + hints[index].help, x: x, y: area.y, style: theme.dimmed) + gap
        }
    }
}
