/// QA's fault panel: every fault with its party, name and summary, and what is armed.
struct FaultPanel: Widget {
    struct Row {
        /// "x" armed, "1" armed one-shot, "·" an app event, " " neither.
        var status: String
        var party: String
        var label: String
        var summary: String
    }

    var title: String
    var rows: [Row]
    var selection: Int
    var hint: String
    var theme: Theme

    func draw(in area: Rect, on grid: inout ScreenGrid) {
        // The names are read whole, an armed one's value and one-shot mark included: the summaries give way (the
        // selected one is shown in full under the list).
        let labelWidth = min(max(rows.map { displayWidth($0.label) }.max() ?? 0, 30), 44)
        let table = rows.map { row in
            [
                ScrollingList.Column("\(row.status) \(row.party)", width: 11, style: theme.plain),
                ScrollingList.Column(row.label, width: labelWidth, style: theme.heading),
                ScrollingList.Column(row.summary, style: theme.dimmed),
            ]
        }
        // A wide terminal shows more of each summary; the selected fault's is always there in full, under the list.
        let selected = rows.indices.contains(selection) ? rows[selection].summary : ""
        ListBox(title: title, rows: table, selection: selection, maxWidth: 160, minimumRows: 3,
                details: ListBox.Details(lines: [selected], wrapped: true, height: 2, style: theme.plain), hint: hint, theme: theme)
            .draw(in: area, on: &grid)
    }
}
