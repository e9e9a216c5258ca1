/// The top row: the app's name on the left, who is logged in and how many orders are pending on the right.
struct TitleBar: Widget {
    var title: String
    var userLabel: String
    /// "—" when nobody is.
    var user: String
    var pendingLabel: String
    var pending: Int
    var style: Style

    func draw(in area: Rect, on grid: inout ScreenGrid) {
        grid.fill(area.row(0), style: style)
        grid.put(" " + title, x: area.x, y: area.y, style: style, limit: area.width / 2)
        // The pending count is never cut (I6): a long name gives way instead.
        let who = "\(userLabel) ", count = " · \(pendingLabel) \(pending) "
        let room = max(area.width / 2 - displayWidth(who) - displayWidth(count), 1)
        let status = who + truncated(user, to: room) + count
        grid.put(status, x: max(area.maxX - displayWidth(status), area.x), y: area.y, style: style)
    }
}
