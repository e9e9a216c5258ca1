@testable import IAPUI
import IAPCore
import Testing

/// Each widget alone on a small grid, compared line by line: what it draws follows from its own data, not the app's.

private let theme = Theme.monochrome

extension Widget {
    /// The widget alone on a grid of the given size.
    func rendered(width: Int, height: Int) -> ScreenGrid {
        var grid = ScreenGrid(width: width, height: height)
        draw(in: Rect(width: width, height: height), on: &grid)
        return grid
    }
}

private func list(_ count: Int, selection: Int?, follow: ScrollingList.Follow) -> ScrollingList {
    ScrollingList(rows: (0..<count).map { [ScrollingList.Column("row \($0)", style: theme.plain)] }, selection: selection, follow: follow,
                  marker: .cursor, highlight: theme.selected)
}

@Suite("The scrolling list")
struct ScrollingListTests {
    @Test("following from the edge: the window stays at the top until the selection passes its last line, then keeps it there")
    func edgeFollow() {
        #expect(list(10, selection: 0, follow: .edge).rendered(width: 7, height: 4).lines == ["▸row 0 ", " row 1 ", " row 2 ", " row 3 "])
        #expect(list(10, selection: 3, follow: .edge).rendered(width: 7, height: 4).lines == [" row 0 ", " row 1 ", " row 2 ", "▸row 3 "])
        #expect(list(10, selection: 4, follow: .edge).rendered(width: 7, height: 4).lines == [" row 1 ", " row 2 ", " row 3 ", "▸row 4 "])
        #expect(list(10, selection: 9, follow: .edge).rendered(width: 7, height: 4).lines == [" row 6 ", " row 7 ", " row 8 ", "▸row 9 "])
    }

    @Test("following from the centre: the selection stays mid-window, and the window stops at both ends")
    func centreFollow() {
        #expect(list(10, selection: 1, follow: .centre).rendered(width: 7, height: 4).lines == [" row 0 ", "▸row 1 ", " row 2 ", " row 3 "])
        #expect(list(10, selection: 5, follow: .centre).rendered(width: 7, height: 4).lines == [" row 3 ", " row 4 ", "▸row 5 ", " row 6 "])
        #expect(list(10, selection: 9, follow: .centre).rendered(width: 7, height: 4).lines == [" row 6 ", " row 7 ", " row 8 ", "▸row 9 "])
    }

    @Test("the window never shows blank lines while rows remain, nor more rows than there are", arguments: [ScrollingList.Follow.edge, .centre])
    func windowBounds(follow: ScrollingList.Follow) {
        for count in 0...8 {
            for height in 0...6 {
                for selection in [nil] + Array(0..<count) {
                    let window = ScrollingList.window(count: count, height: height, selection: selection, follow: follow)
                    #expect(window.count == min(count, height))
                    #expect(window.lowerBound >= 0 && window.upperBound <= count)
                    if let selection, height > 0 { #expect(window.contains(selection)) }
                }
            }
        }
    }

    @Test("only the selected row is filled and marked, across the whole width")
    func highlight() {
        let grid = list(3, selection: 1, follow: .edge).rendered(width: 9, height: 3)
        #expect(grid.lines == [" row 0   ", "▸row 1   ", " row 2   "])
        #expect((0..<9).allSatisfy { grid[$0, 1].style == theme.selected })
        #expect((0..<9).allSatisfy { grid[$0, 0].style == .plain && grid[$0, 2].style == .plain })
    }

    @Test("text too wide for its column is cut with …, wide characters whole; columns keep their places")
    func cutToColumns() {
        let rows: [ScrollingList.Row] = [
            [ScrollingList.Column("a long product name", width: 8, style: theme.plain), ScrollingList.Column("¥6", width: 4, style: theme.plain, alignRight: true)],
            [ScrollingList.Column("月度会员会员", width: 8, style: theme.plain), ScrollingList.Column("¥1234", width: 4, style: theme.plain, alignRight: true)],
            [ScrollingList.Column("short", width: 8, style: theme.plain), ScrollingList.Column("a summary that goes on", style: theme.plain)],
        ]
        let grid = ScrollingList(rows: rows).rendered(width: 16, height: 3)
        #expect(grid.lines == [
            "a long …   ¥6   ",
            "月度会…  ¥12…   ",
            "short    a summ…",
        ])
        #expect(grid.lines.allSatisfy { displayWidth($0) == 16 })
    }

    @Test("given only the first rows, it counts the others on a +N line under the rows' text")
    func moreLine() {
        let rows = (1...4).map { [ScrollingList.Column("order \($0)", style: theme.plain)] }
        let grid = ScrollingList(rows: rows, marker: .bullet, total: 9, moreStyle: theme.dimmed).rendered(width: 12, height: 6)
        #expect(grid.lines == ["• order 1   ", "• order 2   ", "• order 3   ", "• order 4   ", "  +5        ", "            "])
        #expect(grid[2, 4].style == theme.dimmed)
        // Short of room, the +N line keeps its place and counts what it pushed out too.
        #expect(ScrollingList(rows: rows, marker: .bullet, total: 9).rendered(width: 12, height: 3).lines
            == ["• order 1   ", "• order 2   ", "  +7        "])
        // All there: no line.
        #expect(ScrollingList(rows: rows, marker: .bullet, total: 4).rendered(width: 12, height: 5).lines.last == "            ")
    }
}

@Suite("Widgets alone")
struct WidgetTests {
    @Test("the HUD box: centred, its lines centred in it, at least 44 columns inside")
    func hudBox() {
        let hud = HUDBox(headline: "Purchasing…", lines: ["300 coins · ¥30"], footer: "Esc cancels", headlineStyle: theme.waiting,
                         frameStyle: theme.frame, theme: theme)
        let grid = hud.rendered(width: 52, height: 9)
        #expect(grid.lines == [
            "                                                    ",
            "  ┌──────────────────────────────────────────────┐  ",
            "  │                                              │  ",
            "  │                 Purchasing…                  │  ",
            "  │               300 coins · ¥30                │  ",
            "  │                                              │  ",
            "  │                 Esc cancels                  │  ",
            "  └──────────────────────────────────────────────┘  ",
            "                                                    ",
        ])
        #expect(grid[21, 3].style == theme.waiting)
        #expect(grid[21, 6].style == theme.dimmed)
        #expect(hud.size(in: Rect(width: 52, height: 9)) == (width: 44, height: 5))
    }

    @Test("the HUD grows to fit a long sentence whole, up to the area")
    func hudGrows() {
        let sentence = "You've already purchased this. It will be restored for free."
        let hud = HUDBox(headline: sentence, lines: [], footer: "", headlineStyle: theme.waiting, frameStyle: theme.frame, theme: theme)
        #expect(hud.size(in: Rect(width: 80, height: 24)).width == displayWidth(sentence) + 4)
        #expect(hud.rendered(width: 80, height: 8).text.contains(sentence))
        #expect(hud.size(in: Rect(width: 50, height: 24)).width == 46)
    }

    @Test("the logout warning lists the first orders that fit, counts the rest, and lights the focused button")
    func logoutWarning() {
        let warning = LogoutWarning(question: "Orders still pending — log out anyway?", orders: (1...9).map { "300 coins · tx 10\($0)" },
                                    total: 20, buttons: ["Stay", "Log out anyway"], focused: 1, theme: theme)
        let grid = warning.rendered(width: 58, height: 14)
        #expect(grid.lines == [
            "  ┌────────────────────────────────────────────────────┐  ",
            "  │       Orders still pending — log out anyway?       │  ",
            "  │                                                    │  ",
            "  │ • 300 coins · tx 101                               │  ",
            "  │ • 300 coins · tx 102                               │  ",
            "  │ • 300 coins · tx 103                               │  ",
            "  │ • 300 coins · tx 104                               │  ",
            "  │ • 300 coins · tx 105                               │  ",
            "  │ • 300 coins · tx 106                               │  ",
            "  │   +14                                              │  ",
            "  │                                                    │  ",
            "  │           [ Stay ]    [ Log out anyway ]           │  ",
            "  │                                                    │  ",
            "  └────────────────────────────────────────────────────┘  ",
        ])
        #expect(grid[26, 11].style == theme.focusedButton)
        #expect(grid[15, 11].style == theme.button)
        // With room for all of them, every order is listed and nothing counted.
        let roomy = warning.rendered(width: 58, height: 24).text
        #expect((1...9).allSatisfy { roomy.contains("tx 10\($0) ") } && roomy.contains("+11"))
    }

    @Test("the quit question alone takes a box of three lines")
    func quitConfirm() {
        let quit = QuitConfirm(question: "Quit with a purchase in flight?", answers: "y quit   n stay", covering: nil, theme: theme)
        #expect(quit.rendered(width: 50, height: 7).lines == [
            "                                                  ",
            " ┌──────────────────────────────────────────────┐ ",
            " │       Quit with a purchase in flight?        │ ",
            " │                                              │ ",
            " │               y quit   n stay                │ ",
            " └──────────────────────────────────────────────┘ ",
            "                                                  ",
        ])
    }

    @Test("the product list: heading and balance over a rule, columns as wide as their entries, the window following the selection down")
    func productList() {
        let rows = (1...6).map {
            ProductList.Row(title: "Product \($0)", kind: "Consumable", summary: "a summary that is rather long", price: "¥\($0 * 6)",
                            owned: $0 == 2)
        }
        let list = ProductList(heading: "Products", balance: "Balance 120 coins", content: .rows(rows, selection: 4), ownedMark: "owned",
                               theme: theme)
        let grid = list.rendered(width: 64, height: 6)
        #expect(grid.lines == [
            "  Products                                   Balance 120 coins  ",
            "  ────────────────────────────────────────────────────────────  ",
            "    Product 2  Consumable  a summary that is rath…  ¥12  owned  ",
            "    Product 3  Consumable  a summary that is rath…  ¥18         ",
            "    Product 4  Consumable  a summary that is rath…  ¥24         ",
            "  ▸ Product 5  Consumable  a summary that is rath…  ¥30         ",
        ])
        #expect((1..<63).allSatisfy { grid[$0, 5].style == theme.selected } && grid[63, 5].style == .plain)
        let empty = ProductList(heading: "Products", balance: "Balance 0",
                                content: .unavailable(reason: "Network hiccup", again: "f asks again", byIdentifier: "By identifier:",
                                                      identifiers: ["com.a", "com.b"], selection: 1),
                                ownedMark: "owned", theme: theme)
        let unavailable = empty.rendered(width: 40, height: 8)
        #expect(unavailable.lines == [
            "  Products                   Balance 0  ",
            "  ────────────────────────────────────  ",
            "                                        ",
            "   Network hiccup                       ",
            "   f asks again                         ",
            "                                        ",
            "   By identifier:                       ",
            "  ▸ com.b                               ",
        ])
        #expect(empty.rendered(width: 40, height: 9).lines.suffix(2) == ["    com.a                               ",
                                                                        "  ▸ com.b                               "])
    }

    private static let shop = [
        ProductList.Row(title: "300 Coins", kind: "Consumable", summary: "A pouch of coins", price: "¥30"),
        ProductList.Row(title: "Monthly VIP", kind: "Subscription", summary: "VIP perks, renews monthly, first week free",
                        status: "Billing retry · grace until 12 Dec", statusStyle: theme.waiting, price: "¥30", period: "/month", owned: true),
        ProductList.Row(title: "Yearly VIP", kind: "Subscription", summary: "VIP perks for a year at a time", price: "¥298", period: "/year"),
    ]

    @Test("a subscription's status takes the kind's and the summary's room, whole at 80 columns; its period follows the price")
    func productListStatus() {
        let list = ProductList(heading: "Products", balance: "", content: .rows(Self.shop, selection: 0), ownedMark: "Owned", theme: theme)
        let grid = list.rendered(width: 80, height: 5)
        #expect(Array(grid.lines.dropFirst(2)) == [
            "  ▸ 300 Coins    Consumable    A pouch of coins               ¥30               ",
            "    Monthly VIP  Billing retry · grace until 12 Dec           ¥30/month  Owned  ",
            "    Yearly VIP   Subscription  VIP perks for a year at a t…  ¥298/year          ",
        ])
        #expect(grid[17, 3].style == theme.waiting && grid[16, 3].style == .plain)
    }

    @Test("a wide terminal gives its room to the names and the summaries, cut nowhere")
    func productListWide() {
        var rows = Self.shop
        rows[0].title = "A product whose name is much longer than eighteen columns"
        let list = ProductList(heading: "Products", balance: "", content: .rows(rows, selection: 0), ownedMark: "Owned", theme: theme)
        let text = list.rendered(width: 200, height: 5).text
        #expect(text.contains(rows[0].title) && text.contains(rows[1].summary) == false && text.contains(rows[2].summary))
        #expect(!text.contains("…"))
    }

    @Test("the fault panel keeps the selection mid-window, lights its whole row, and says the selected fault in full under the list")
    func faultPanel() {
        let rows = (1...8).map {
            FaultPanel.Row(status: $0 == 6 ? "x" : " ", party: "store", label: "fault-\($0)", summary: "what fault \($0) does to the store")
        }
        let grid = FaultPanel(title: "Faults", rows: rows, selection: 5, hint: "Enter arms", theme: theme).rendered(width: 66, height: 12)
        #expect(grid.lines == [
            "                                                                  ",
            " ┌─ Faults ─────────────────────────────────────────────────────┐ ",
            " │    store     fault-4                        what fault 4 do… │ ",
            " │    store     fault-5                        what fault 5 do… │ ",
            " │ ▸x store     fault-6                        what fault 6 do… │ ",
            " │    store     fault-7                        what fault 7 do… │ ",
            " │                                                              │ ",
            " │ what fault 6 does to the store                               │ ",
            " │                                                              │ ",
            " │ Enter arms                                                   │ ",
            " └──────────────────────────────────────────────────────────────┘ ",
            "                                                                  ",
        ])
        #expect((3..<63).allSatisfy { grid[$0, 4].style == theme.selected })
        #expect(grid[16, 2].style == theme.heading && grid[47, 2].style == theme.dimmed)
    }

    @Test("the subscriptions panel: a row per subscription, the selected one's details under the list, the key hint last")
    func subscriptionPanel() {
        let rows = [
            SubscriptionPanel.Row(title: "VIP Plus", status: "Active · renews 4 Feb", statusStyle: theme.good),
            SubscriptionPanel.Row(title: "Music", status: "Expired", statusStyle: theme.dimmed),
        ]
        let panel = SubscriptionPanel(title: "Subscriptions", rows: rows, selection: 0,
                                      details: ["Group vip · level 1 of 2 · ¥45/month", "Next renewal: Monthly VIP, ¥30/month (a downgrade)"],
                                      hint: "Enter cancel auto-renew · Esc close", empty: "No subscriptions for this account.", theme: theme)
        let grid = panel.rendered(width: 62, height: 11)
        #expect(grid.lines == [
            "                                                              ",
            " ┌─ Subscriptions ──────────────────────────────────────────┐ ",
            " │ ▸VIP Plus  Active · renews 4 Feb                         │ ",
            " │  Music     Expired                                       │ ",
            " │                                                          │ ",
            " │ Group vip · level 1 of 2 · ¥45/month                     │ ",
            " │ Next renewal: Monthly VIP, ¥30/month (a downgrade)       │ ",
            " │                                                          │ ",
            " │ Enter cancel auto-renew · Esc close                      │ ",
            " └──────────────────────────────────────────────────────────┘ ",
            "                                                              ",
        ])
        #expect((3..<59).allSatisfy { grid[$0, 2].style == theme.selected } && grid[59, 2].style != theme.selected)
        #expect(grid[14, 3].style == theme.dimmed && grid[3, 8].style == theme.dimmed)
        // With more rows than room, the list scrolls and the details and the hint stay.
        let many = SubscriptionPanel(title: "Subscriptions", rows: Array(repeating: rows[1], count: 9), selection: 8, details: ["a", "b"],
                                     hint: "Esc close", empty: "", theme: theme).rendered(width: 30, height: 13)
        #expect(many.lines[2...].prefix(9).map { String($0.dropFirst(3).prefix(9)) } == [" Music  E", " Music  E", " Music  E", "▸Music  E",
                                                                                          "         ", "a        ", "b        ", "         ",
                                                                                          "Esc close"])
    }

    /// From a QA walk: at 64 columns the scenario list's hint ended "· Es…", hiding the key that closes it.
    @Test("a list box's hint wider than the box goes on to the next line, the list giving up a row for it")
    func hintWraps() {
        let box = ListBox(title: "Scenarios", rows: ["one", "two", "three"].map { ScrollingList.line($0, style: theme.plain) }, selection: 2,
                          margin: 0, hint: "Enter sets it up and hands it over · Esc closes", theme: theme)
        #expect(box.rendered(width: 36, height: 7).lines == [
            " ┌─ Scenarios ────────────────────┐ ",
            " │  two                           │ ",
            " │ ▸three                         │ ",
            " │                                │ ",
            " │ Enter sets it up and hands it  │ ",
            " │ over · Esc closes              │ ",
            " └────────────────────────────────┘ ",
        ])
        // A key and what it does stay on one line: the hint breaks at a " · " before it rather than inside it.
        #expect(box.rendered(width: 46, height: 7).lines == [
            " ┌─ Scenarios ──────────────────────────────┐ ",
            " │  two                                     │ ",
            " │ ▸three                                   │ ",
            " │                                          │ ",
            " │ Enter sets it up and hands it over       │ ",
            " │ Esc closes                               │ ",
            " └──────────────────────────────────────────┘ ",
        ])
    }

    @Test("the subscriptions panel says so when the account has none")
    func subscriptionPanelEmpty() {
        let panel = SubscriptionPanel(title: "Subscriptions", rows: [], selection: 0, details: [], hint: "Esc close",
                                      empty: "No subscriptions for this account.", theme: theme)
        #expect(panel.rendered(width: 44, height: 7).lines == [
            "                                            ",
            " ┌─ Subscriptions ────────────────────────┐ ",
            " │ No subscriptions for this account.     │ ",
            " │                                        │ ",
            " │ Esc close                              │ ",
            " └────────────────────────────────────────┘ ",
            "                                            ",
        ])
    }

    private static func section(_ title: String, _ count: Int) -> HelpOverlay.Section {
        HelpOverlay.Section(title: title, keys: (1...count).map { ("\(title.lowercased())\($0)", "does \(title) \($0)") })
    }

    @Test("the help overlay: sections whole in two columns of even length, apart where there is room, then paged when the screen is too short")
    func helpOverlay() {
        let help = HelpOverlay(title: "Keys", sections: [Self.section("A", 3), Self.section("B", 2), Self.section("C", 1)], page: 0,
                               close: "Esc closes", turn: "PgDn more", theme: theme)
        #expect(help.rendered(width: 80, height: 10).lines == [
            " ┌─ Keys ─────────────────────────────────────────────────────────────────────┐ ",
            " │ A                                    B                                     │ ",
            " │ a1 does A 1                          b1 does B 1                           │ ",
            " │ a2 does A 2                          b2 does B 2                           │ ",
            " │ a3 does A 3                                                                │ ",
            " │                                      C                                     │ ",
            " │                                      c1 does C 1                           │ ",
            " │                                                                            │ ",
            " └ Esc closes ────────────────────────────────────────────────────────────────┘ ",
            "                                                                                ",
        ])
        #expect(grid(help, 80, 10)[3, 1].style == theme.heading && grid(help, 80, 10)[3, 2].style == theme.hintKey)
        // Too short for one page: columns as tall as the screen allows, a section longer than that under its heading
        // again, and the footer, in the frame's bottom edge, counting the pages.
        let short = HelpOverlay(title: "Keys", sections: [Self.section("A", 5), Self.section("B", 2)], page: 1, close: "Esc closes",
                                turn: "PgDn more", theme: theme)
        #expect(HelpOverlay.columns(short.sections, lines: 4, whole: true).map(\.count) == [4, 3, 3])
        let split = [Self.section("A", 1), Self.section("B", 3)]
        #expect(HelpOverlay.columns(split, lines: 4, whole: true).map(\.count) == [2, 4])
        #expect(HelpOverlay.columns(split, lines: 4, whole: false) == [
            [.heading("A"), .key("a1", help: "does A 1"), .heading("B"), .key("b1", help: "does B 1")],
            [.heading("B"), .key("b2", help: "does B 2"), .key("b3", help: "does B 3")],
        ])
        #expect(short.layout(in: Rect(width: 50, height: 7)).pages == 2)
        #expect(short.rendered(width: 50, height: 7).lines == [
            " ┌─ Keys ───────────────────────────────────────┐ ",
            " │ A                                            │ ",
            " │ a5 does A 5                                  │ ",
            " │ B                                            │ ",
            " │ b1 does B 1                                  │ ",
            " │ b2 does B 2                                  │ ",
            " └ Esc closes · PgDn more (2/2) ────────────────┘ ",
        ])
        // Counted round: the page before the first is the last.
        var last = short
        last.page = -1
        #expect(last.rendered(width: 50, height: 7).text.contains("(2/2)"))
    }

    private func grid(_ widget: some Widget, _ width: Int, _ height: Int) -> ScreenGrid {
        widget.rendered(width: width, height: height)
    }

    // The footer sits in the frame's bottom edge, which left room for one more key after `o` and `p` took the last lines.
    @Test("at 80×24 the whole keymap fits one page with room for one more key, in both languages; many more keys spill onto a second")
    func helpRoomForMore() {
        for lang in Language.allCases {
            var state = AppState(lang: lang)
            state.user = "alice"
            var help = StateView(state: state, theme: theme).help(page: 0)
            let middle = Rect(width: 80, height: 22)
            #expect(help.layout(in: middle).pages == 1)
            var oneMore = help
            oneMore.sections[1].keys.append(("x", "one more key"))
            #expect(oneMore.layout(in: middle).pages == 1, "room for the next key")
            help.sections[0].keys += (1...20).map { ("\($0)", "many more") }
            #expect(help.layout(in: middle).pages == 2)
        }
    }

    @Test("the title bar cuts a long name, never the pending count (I6)")
    func titleBar() {
        let bar = TitleBar(title: "iapsim", status: .init(userLabel: "user", user: "a-very-long-user-name", pendingLabel: "pending", pending: 12),
                           style: theme.titleBar)
        let grid = bar.rendered(width: 60, height: 1)
        #expect(grid.lines == [" iapsim                       user a-very-lon… · pending 12 "])
        #expect((0..<60).allSatisfy { grid[$0, 0].style == theme.titleBar })
    }

    @Test("the hint bar shows every hint that fits, closer together when that fits them all, and keeps the last ones (the ways out)")
    func hintBar() {
        let bar = HintBar(hints: [("↑/k", "up", false), ("Enter", "choose", false), ("q", "quit", false)], theme: theme)
        #expect(bar.rendered(width: 40, height: 1).lines == ["↑/k up  Enter choose  q quit            "])
        // Two spaces between would leave one out; one lets every hint in.
        #expect(bar.rendered(width: 28, height: 1).lines == ["↑/k up Enter choose q quit  "])
        // Too narrow for all: the first goes, q quit stays.
        #expect(bar.rendered(width: 24, height: 1).lines == ["Enter choose  q quit    "])
        #expect(bar.rendered(width: 9, height: 1).lines == ["q quit   "])
    }

    /// From a QA walk: at 64 columns the product list's bar left out Enter (the way to buy) and kept `m subscriptions`.
    @Test("too narrow for all, the bar leaves out the others before the keys it keeps (Enter, Esc, the ways out)")
    func hintBarKeepsTheEssential() {
        let bar = HintBar(hints: [("↑/k", "up", false), ("Enter", "choose", true), ("m", "subscriptions", false), ("e", "explain", false),
                                  ("?", "help", true), ("q", "quit", true)], theme: theme)
        #expect(bar.rendered(width: 40, height: 1).lines == ["Enter choose e explain ? help q quit    "])
        #expect(bar.rendered(width: 30, height: 1).lines == ["Enter choose  ? help  q quit  "])
        #expect(bar.rendered(width: 27, height: 1).lines == ["Enter choose ? help q quit "])
        // Narrower still, the kept ones go from the front too: the ways out stay last.
        #expect(bar.rendered(width: 14, height: 1).lines == ["? help q quit "])
    }

    @Test("badges first, then the alarm, cut at the edge")
    func badgeLine() {
        let line = BadgeLine(badges: ["backend down", "ask-to-buy"], alarm: "ALARM: tx 1000000009 paid, nobody to credit", theme: theme)
        let grid = line.rendered(width: 44, height: 1)
        #expect(grid.lines == [" backend down   ask-to-buy  ALARM: tx 10000…"])
        #expect(grid[1, 0].style == theme.badge && grid[30, 0].style == theme.bad)
    }

    @Test("badges that do not fit are counted (+N), never cut mid-word, and an alarm keeps room to be seen (I6)")
    func badgeLineOverflow() {
        let badges = ["Apple ID sandbox-1", "backend-slow=2·once", "verify-status=21005·once", "observer-delayed=8·once"]
        let full = BadgeLine(badges: badges, alarm: nil, theme: theme).rendered(width: 80, height: 1).lines[0]
        #expect(full == " Apple ID sandbox-1   backend-slow=2·once   verify-status=21005·once   +1       ", "\(full)")
        let alarmed = BadgeLine(badges: badges, alarm: "Alarm: tx 1000000009 paid, nobody to credit", theme: theme)
            .rendered(width: 80, height: 1).lines[0]
        #expect(alarmed == " Apple ID sandbox-1   backend-slow=2·once   +2  Alarm: tx 1000000009 paid, nobo…", "\(alarmed)")
    }

    @Test("the StoreKit 2 setting sits at the right end where the alarm leaves room, and never hides any of it (I6)")
    func badgeLineSetting() {
        let quiet = BadgeLine(badges: ["ask-to-buy"], alarm: nil, settings: ["StoreKit 2"], theme: theme)
        #expect(quiet.rendered(width: 30, height: 1).lines == [" ask-to-buy        StoreKit 2 "])
        let short = BadgeLine(badges: [], alarm: "ALARM: x", settings: ["StoreKit 2"], theme: theme)
        #expect(short.rendered(width: 30, height: 1).lines == ["ALARM: x           StoreKit 2 "])
        let long = BadgeLine(badges: [], alarm: "ALARM: tx 1000000009 paid, nobody", settings: ["StoreKit 2"], theme: theme)
        #expect(long.rendered(width: 40, height: 1).lines == ["ALARM: tx 1000000009 paid, nobody       "])
    }
}

@Suite("The badge line's setting in small terminals")
struct BadgeLineSettingTests {
    let theme = Theme.monochrome

    @Test("where the setting's words do not fit, a shorter form of them does, and badges give way to it before it goes (found by QA: StoreKit 2 and Server API vanished at 64×18)")
    func shorterSetting() {
        let long = "backend: Server API · StoreKit 2", shorter = "Server API · SK2", shortest = "API · SK2"
        let line = BadgeLine(badges: ["backend down", "Apple ID sandbox-1"], alarm: nil, settings: [long, shorter, shortest], theme: theme)
        let drawnLine = line.rendered(width: 62, height: 1).lines[0]
        #expect(drawnLine.hasPrefix(" backend down   Apple ID sandbox-1 ") && drawnLine.hasSuffix("  Server API · SK2 "), "\(drawnLine)")
        let crowded = BadgeLine(badges: ["backend down", "Apple ID sandbox-1", "ask-to-buy", "observer-lost·once"], alarm: nil,
                                settings: [long, shorter, shortest], theme: theme)
        let drawn = crowded.rendered(width: 62, height: 1).lines[0]
        #expect(drawn.hasSuffix(" API · SK2 ") && drawn.contains("+"), "\(drawn)")
    }
}

@Suite("Rect")
struct RectTests {
    @Test("splits and insets cover the rectangle without overlap")
    func splits() {
        let area = Rect(x: 2, y: 1, width: 20, height: 10)
        let (top, rest) = area.splitTop(3)
        #expect(top == Rect(x: 2, y: 1, width: 20, height: 3) && rest == Rect(x: 2, y: 4, width: 20, height: 7))
        let (above, bottom) = area.splitBottom(2)
        #expect(above == Rect(x: 2, y: 1, width: 20, height: 8) && bottom == Rect(x: 2, y: 9, width: 20, height: 2))
        let (left, right) = area.splitLeft(5)
        #expect(left == Rect(x: 2, y: 1, width: 5, height: 10) && right == Rect(x: 7, y: 1, width: 15, height: 10))
        #expect(area.inset(dx: 2, dy: 1) == Rect(x: 4, y: 2, width: 16, height: 8))
        #expect(area.splitTop(30).rest.height == 0)
        #expect(area.inset(dx: 20).width == 0)
    }

    @Test("centring rounds up and left, and never outgrows the rectangle")
    func centring() {
        #expect(Rect(width: 10, height: 5).centred(width: 5, height: 2) == Rect(x: 2, y: 1, width: 5, height: 2))
        #expect(Rect(x: 1, y: 1, width: 10, height: 5).centred(width: 20, height: 9) == Rect(x: 1, y: 1, width: 10, height: 5))
    }
}
