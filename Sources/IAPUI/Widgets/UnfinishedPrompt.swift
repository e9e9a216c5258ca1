/// "Unfinished order found": which product and order, and Continue or Later.
struct UnfinishedPrompt: Widget {
    var title: String
    var product: String
    var reference: String
    /// Under the serial policy (C9) this prompt is also what a new purchase gets: this line says why.
    var policy: String?
    var buttons: [String]
    var focused: Int
    var theme: Theme

    func draw(in area: Rect, on grid: inout ScreenGrid) {
        let inner = Box(title: title, theme: theme).draw(aroundWidth: 46, height: policy == nil ? 6 : 7, centredIn: area, on: &grid)
        grid.putCentred(product, in: inner.row(1), style: theme.heading)
        grid.putCentred(reference, in: inner.row(2), style: theme.dimmed)
        if let policy { grid.putCentred(policy, in: inner.row(3), style: theme.dimmed) }
        Buttons(labels: buttons, focused: focused, theme: theme).draw(in: inner.row(policy == nil ? 4 : 5), on: &grid)
    }
}
