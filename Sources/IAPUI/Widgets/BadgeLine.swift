/// Armed faults as badges, then the latest alarm, so that no state is silent (I6); at the right end, the client's
/// setting that changes what the screens mean underneath (StoreKit 2), when the alarm leaves room for it.
struct BadgeLine: Widget {
    var badges: [String]
    var alarm: String?
    /// Drawn at the line's right end, only where it hides nothing: an alarm is what the line is for. Its words, longest
    /// first: the first that fits is drawn, and without an alarm the badges leave room for the last.
    var settings: [String] = []
    var theme: Theme

    /// What an alarm keeps of the line, at least, however many badges there are: enough to be seen (I6).
    static let alarmRoom = 16

    func draw(in area: Rect, on grid: inout ScreenGrid) {
        var x = area.x
        let settingRoom = settings.last.map { displayWidth($0) + 3 } ?? 0
        let badgesEnd = area.maxX - (alarm.map { min(displayWidth($0), Self.alarmRoom) } ?? settingRoom)
        // Each badge whole, or not at all: those that do not fit are counted, so that none is cut to a misleading word.
        for (index, badge) in badges.enumerated() {
            // The badge with its padding and the gap after it, and room for the count of any after it.
            let left = badges.count - index - 1
            let count = left > 0 ? displayWidth(" +\(left) ") + 1 : 0
            guard x + displayWidth(" \(badge) ") + 1 + count <= badgesEnd else {
                x += grid.put(" +\(badges.count - index) ", x: x, y: area.y, style: theme.badge, limit: area.maxX - x) + 1
                break
            }
            x += grid.put(" \(badge) ", x: x, y: area.y, style: theme.badge, limit: area.maxX - x) + 1
        }
        var end = area.maxX
        let alarmWidth = alarm.map(displayWidth) ?? 0
        if let setting = settings.first(where: { x + alarmWidth + 1 + displayWidth($0) + 2 <= area.maxX }) {
            let width = displayWidth(setting) + 2
            end = area.maxX - width
            _ = grid.put(" \(setting) ", x: end, y: area.y, style: theme.badge, limit: width)
        }
        if let alarm {
            grid.put(alarm, x: x, y: area.y, style: theme.bad, limit: end - x)
        }
    }
}
