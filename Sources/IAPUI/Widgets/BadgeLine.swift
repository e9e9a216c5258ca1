/// Armed faults as badges, then the latest alarm, so that no state is silent (I6).
struct BadgeLine: Widget {
    var badges: [String]
    var alarm: String?
    var theme: Theme

    func draw(in area: Rect, on grid: inout ScreenGrid) {
        var x = area.x
        for badge in badges where x < area.maxX - 1 {
            x += grid.put(" \(badge) ", x: x, y: area.y, style: theme.badge, limit: area.maxX - x) + 1
        }
        if let alarm {
            grid.put(alarm, x: x, y: area.y, style: theme.bad, limit: area.maxX - x)
        }
    }
}
