/// "Orders still pending — log out anyway?": the first pending orders, as many as the screen has room for, how many
/// more, and Stay or Log out.
struct LogoutWarning: Widget {
    var question: String
    /// The first pending orders, one line each (at most `most`).
    var orders: [String]
    /// How many are pending in all.
    var total: Int
    var buttons: [String]
    var focused: Int
    var theme: Theme

    static let most = 16
    /// The box's lines besides the list: its borders, the question, the blanks around the list and the buttons.
    private static let around = 7

    func draw(in area: Rect, on grid: inout ScreenGrid) {
        let room = max(area.height - Self.around, 2)
        let listed = Array(orders.prefix(total <= room ? total : room - 1))
        let listHeight = listed.count + (total > listed.count ? 1 : 0)
        let inner = Box(theme: theme).draw(aroundWidth: 50, height: 5 + listHeight, centredIn: area, on: &grid)
        grid.putCentred(question, in: inner.row(0), style: theme.heading)
        let rows = listed.map { ScrollingList.line($0, style: theme.plain) }
        ScrollingList(rows: rows, marker: .bullet, total: total, moreStyle: theme.dimmed)
            .draw(in: Rect(x: inner.x, y: inner.y + 2, width: inner.width, height: listHeight), on: &grid)
        Buttons(labels: buttons, focused: focused, theme: theme).draw(in: inner.row(3 + listHeight), on: &grid)
    }
}
