/// The bottom row: the keys that work here. All of them when they fit, two spaces apart, or else one; when even that
/// is too wide, the first ones are left out (the keymap lists moving first and the ways out, `?` and `q`, last), so
/// the way to every other key stays in sight.
struct HintBar: Widget {
    var hints: [(key: String, help: String)]
    var theme: Theme

    func draw(in area: Rect, on grid: inout ScreenGrid) {
        let widths = hints.map { displayWidth($0.key) + 1 + displayWidth($0.help) }
        func fits(from first: Int, gap: Int) -> Bool { widths[first...].reduce(0) { $0 + $1 + gap } <= area.width }
        var first = 0
        while first < hints.count, !fits(from: first, gap: 1) { first += 1 }
        let gap = fits(from: first, gap: 2) ? 2 : 1
        var x = area.x
        for (key, help) in hints[first...] {
            x += grid.put(key, x: x, y: area.y, style: theme.hintKey)
            x += grid.put(" " + help, x: x, y: area.y, style: theme.dimmed) + gap
        }
    }
}
