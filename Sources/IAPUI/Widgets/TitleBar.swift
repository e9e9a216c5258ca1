/// The top row: the app's name on the left, who is logged in and how many orders are pending on the right.
struct TitleBar: Widget {
    struct Status {
        var userLabel: String
        /// "—" when nobody is.
        var user: String
        var pendingLabel: String
        var pending: Int
    }

    var title: String
    /// Nil on the launch screen, which is drawn before anyone's data is read.
    var status: Status?
    var style: Style

    func draw(in area: Rect, on grid: inout ScreenGrid) {
        grid.fill(area.row(0), style: style)
        // The title has the row to itself on the launch screen, half of it beside the status.
        grid.put(" " + title, x: area.x, y: area.y, style: style, limit: status == nil ? area.width : area.width / 2)
        guard let status else { return }
        // The pending count is never cut (I6): a long name gives way instead.
        let who = "\(status.userLabel) ", count = " · \(status.pendingLabel) \(status.pending) "
        let room = max(area.width / 2 - displayWidth(who) - displayWidth(count), 1)
        let shown = who + truncated(status.user, to: room) + count
        grid.put(shown, x: max(area.maxX - displayWidth(shown), area.x), y: area.y, style: style)
    }
}
