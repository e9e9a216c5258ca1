/// Settings › Subscriptions: one row per subscription with where it stands; under the list, more about the selected
/// one and what Enter does to it.
struct SubscriptionPanel: Widget {
    struct Row {
        var title: String
        var status: String
        var statusStyle: Style
    }

    var title: String
    var rows: [Row]
    var selection: Int
    /// About the selected subscription: its group, level and price, then what comes next for it.
    var details: [String]
    var hint: String
    /// Said instead of the list when the account has no subscription.
    var empty: String
    var theme: Theme

    func draw(in area: Rect, on grid: inout ScreenGrid) {
        let titleWidth = rows.map { displayWidth($0.title) }.max() ?? 0
        let table = rows.map { row in
            [
                ScrollingList.Column(row.title, width: titleWidth, style: theme.plain, gap: 2),
                ScrollingList.Column(row.status, style: row.statusStyle),
            ]
        }
        // The details' two lines (more if they wrap) and a blank line before the hint, while there is a list.
        ListBox(title: title, rows: table, selection: selection, maxWidth: 80, firstColumnAtMostHalf: true,
                details: rows.isEmpty ? nil : ListBox.Details(lines: details, height: 2, style: theme.plain, spaced: true), hint: hint,
                empty: (empty, theme.plain), theme: theme)
            .draw(in: area, on: &grid)
    }
}
