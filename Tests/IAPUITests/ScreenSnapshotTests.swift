import Foundation
import IAPCore
import IAPUI
import MockStore
import Testing

let shippedCatalog = try! CatalogLoader.load(
    path: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("assets/catalog.json").path)

/// Every screen a person can see (the gallery's), by state id.
private let screens = GalleryScreen.all(catalog: shippedCatalog)

private func screen(_ id: String) -> GalleryScreen {
    screens.first { $0.id == id }!
}

@Suite("Whole screens at 80×24, colour and monochrome, English and Chinese")
struct ScreenSnapshotTests {
    static let cases = screens.flatMap { screen in Language.allCases.map { (screen.id, $0) } }

    @Test("screen matches its snapshot", arguments: cases.map { "\($0.0).\($0.1.rawValue)" })
    func snapshot(_ id: String) throws {
        let parts = id.split(separator: ".")
        let name = String(parts[0]), lang = Language(rawValue: String(parts[1]))!
        try assertSnapshot(id, color: screen(name).render(lang, theme: .color), monochrome: screen(name).render(lang, theme: .monochrome))
    }

    @Test("the launch screen is the first screen's title bar alone: nothing on it depends on data, and nothing moves when the app replaces it",
          arguments: Language.allCases)
    func launchScreen(lang: Language) throws {
        let launch = Renderer.launchScreen(lang: lang, width: 80, height: 24, theme: .color)
        try assertSnapshot("launch-screen.\(lang.rawValue)", color: launch, monochrome: Renderer.launchScreen(lang: lang, width: 80, height: 24, theme: .monochrome))
        var loading = screen("products").state(lang)
        loading.productsStatus = .loading
        let first = Renderer.render(loading, width: 80, height: 24, theme: .color)
        let title = " " + Text.appTitle(lang)
        #expect(launch.lines[0].hasPrefix(title) && first.lines[0].hasPrefix(title))
        #expect((0..<80).allSatisfy { launch[$0, 0].style == first[$0, 0].style })
        #expect(launch.lines.dropFirst().allSatisfy { $0.allSatisfy { $0 == " " } })
        // On a terminal too narrow for the app, the title is whole where it fits (found by QA: cut at half the row).
        #expect(Renderer.launchScreen(lang: lang, width: 40, height: 10, theme: .monochrome).lines[0].hasPrefix(title + " "))
    }

    @Test("every HUD's canonical sentence is on screen whole at the smallest size, in both languages", arguments: HUD.Kind.allCases)
    func hudTextNeverCut(kind: HUD.Kind) {
        for lang in Language.allCases {
            var state = screen("products").state(lang)
            state.hud = HUD(kind, productId: "com.iapsim.noads")
            let text = Renderer.render(state, width: 64, height: 18, theme: .monochrome).text
            for word in kind.text(lang).replacingOccurrences(of: "{n}", with: "1").split(separator: " ") {
                #expect(text.contains(word), "\(kind) (\(lang)): \"\(word)\" is cut")
            }
        }
    }

    @Test("while the product request has failed, the balance still counts the units held, by product identifier (found by a server engineer's walk: \"Balance 0 coins\" after buying one)")
    func unitsWithoutProducts() {
        let gems = "org.fixture.gems100"
        var state = screen("products").state(.en)
        state.products = []
        state.productsStatus = .failed
        state.productIdentifiers = [gems]
        var account = Account()
        account.units = [gems: 2]
        state.session?.account = account
        let text = Renderer.render(state, width: 80, height: 24, theme: .monochrome).text
        #expect(text.contains("Balance \(gems) ×2"), "\(text)")
    }

    @Test("the HUD says what the sheet charges: a free trial as free, a win-back offer Apple turned away as no longer the Apple ID's (found by a newcomer's walk)")
    func hudSaysWhatIsCharged() {
        let monthly = "com.iapsim.vip.monthly"
        var state = screen("products").state(.en)
        state.hud = HUD(.success, productId: monthly, charge: HUD.Charge(intro: shippedCatalog.first { $0.id == monthly }?.subscription?.introOffer))
        var text = Renderer.render(state, width: 80, height: 24, theme: .monochrome).text
        #expect(text.contains("Monthly VIP · Free for 1 week"), "\(text)")
        state.storeKit = .two
        state.hud = HUD(.offerRefused, productId: monthly, error: .ineligibleForOffer, charge: HUD.Charge(offerId: "vip_winback"))
        text = Renderer.render(state, width: 80, height: 24, theme: .monochrome).text
        #expect(text.contains("no longer yours"), "\(text)")
        #expect(!text.contains("only for current or past subscribers"))
    }

    @Test("the logout warning counts every pending order, not only the page in memory (I6)")
    func logoutWarningCountsTheBacklog() {
        var state = screen("logout-warning").state(.en)
        state.session?.pendingTotal = 9_000
        let text = Renderer.render(state, width: 80, height: 24, theme: .monochrome).text
        #expect(text.contains("+\(9_000 - state.pendingOrders.count)"), "\(text)")
    }

    @Test("a terminal smaller than 64×18 says which size it needs")
    func tooSmall() {
        let text = Renderer.render(screen("products").state(.en), width: 40, height: 10, theme: .color).text
        #expect(text.contains("need at least 64×18"))
        #expect(text.contains("(40×10)"))
        // Chinese ends its sentence with its own full stop (found by QA: an ASCII period).
        let zh = Renderer.render(screen("products").state(.zh), width: 40, height: 10, theme: .color).text.replacingOccurrences(of: "\n", with: "")
        #expect(zh.contains("(40×10)。") && !zh.contains("(40×10)."), "\(zh)")
    }

    @Test("the status line always names the user and the pending count (I6)", arguments: screens.filter { $0.id != "too-small" }.map(\.id))
    func statusLine(_ name: String) {
        let state = screen(name).state(.en)
        let top = screen(name).render(.en, theme: .color).lines[0]
        #expect(top.contains("user \(state.user ?? "—") · pending \(state.pendingCount)"))
    }

    @Test("Chinese product rows line up: every row is exactly as wide as the screen", arguments: [64, 80, 101])
    func cjkAlignment(width: Int) {
        let grid = Renderer.render(screen("products").state(.zh), width: width, height: 24, theme: .color)
        for line in grid.lines {
            #expect(displayWidth(line) == width, "\(line)")
        }
        #expect(grid.text.contains("月度会员"))
        #expect(grid.text.contains("余额 120 金币"))
    }

    @Test("a subscription's status line is whole at 80 columns, in both languages",
          arguments: ["sub-trial", "sub-active", "sub-cancelled", "sub-grace-period", "sub-billing-retry", "sub-expired", "sub-revoked"])
    func statusLineWhole(_ name: String) throws {
        for lang in Language.allCases {
            let state = screen(name).state(lang)
            let status = try #require(state.selectedSubscription)
            #expect(screen(name).render(lang, theme: .monochrome).text.contains(status.line(lang)), "\(name) (\(lang))")
        }
    }

    @Test("on a wide terminal the product list cuts neither names nor descriptions, and says each subscription's period")
    func wideProductList() {
        for lang in Language.allCases {
            let state = screen("products").state(lang)
            let lines = Renderer.render(state, width: 200, height: 24, theme: .monochrome).lines
            for product in state.products {
                let row = lines.first { $0.contains(product.title[lang]) }
                // A subscription whose intro offer the Apple ID may have says so in place of what it is.
                let said = state.introOffer(for: product) == nil ? product.summary[lang] : (lang == .en ? "Free for 1 week" : "免费试用1周")
                #expect(row?.contains(said) == true, "\(product.id) (\(lang))")
                if let period = product.subscription?.period {
                    #expect(row?.contains(product.price[lang] + period.perPrice[lang]) == true, "\(product.id) (\(lang))")
                }
            }
        }
    }

    @Test("the help overlay lists every binding of the keymap, its key and its help whole on one line: on one page at 80×24, over its three pages at 64×18")
    func helpListsKeymap() {
        for lang in Language.allCases {
            for (width, height, pages) in [(80, 24, 1), (64, 18, 3)] {
                var state = screen("products").state(lang)
                let lines = (0..<pages).flatMap { page in
                    state.modal = .help(page: page)
                    return Renderer.render(state, width: width, height: height, theme: .color).lines
                }
                for binding in Keymap.bindings {
                    #expect(lines.contains { $0.contains(binding.label) && $0.contains(binding.help[lang]) }, "\(binding.label) at \(width)×\(height) (\(lang))")
                }
                state.modal = .help(page: pages)
                #expect(Renderer.render(state, width: width, height: height, theme: .color).lines == {
                    state.modal = .help(page: 0)
                    return Renderer.render(state, width: width, height: height, theme: .color).lines
                }(), "past the last page comes the first")
            }
        }
    }
}

@Suite("Display width")
struct DisplayWidthTests {
    @Test("wide characters count two columns; truncation never splits one")
    func truncation() {
        #expect(displayWidth("月度会员 ¥30") == 12)
        #expect(truncated("月度会员", to: 4) == "月…")
        #expect(displayWidth(truncated("月度会员", to: 6)) <= 6)
        #expect(padded("金币", to: 6) == "金币  ")
    }

    @Test("a login name longer than its field shows its end and the cursor, cut at the front (found by QA: 24 Chinese characters hid the cursor, and typing changed nothing on screen)", arguments: [Language.en, .zh])
    func longLoginNameShowsItsEnd(lang: Language) {
        var state = AppState()
        state.lang = lang
        state.loginText = "一二三四五六七八九十一二三四五六七八九十一二三四"
        let row = Renderer.render(state, width: 80, height: 24, theme: .monochrome).lines.first { $0.contains("一") || $0.contains("四") }
        #expect(row?.contains("二三四▏") == true && row?.contains("…") == true, "\(row ?? "")")
        state.loginText = "alice"
        #expect(Renderer.render(state, width: 80, height: 24, theme: .monochrome).text.contains("alice▏"))
    }

    @Test("widths are the C library's wcwidth, as the terminal places them: emoji and CJK two, marks none")
    func wcwidthColumns() {
        #expect(displayWidth("🪙") == 2)
        #expect(displayWidth("金") == 2)
        #expect(displayWidth("한") == 2)
        #expect(displayWidth("e\u{301}") == 1)
        #expect(displayWidth("Ⅻ") == 1)
        #expect(displayWidth("\u{7}") == 0)
        // An emoji in a product name keeps the rest of its row in its columns.
        var grid = ScreenGrid(width: 12, height: 1)
        grid.put("Coins 🪙", x: 0, y: 0, style: .plain)
        grid.put("$9", x: 9, y: 0, style: .plain)
        #expect(grid[6, 0].text == "🪙" && grid[7, 0].text.isEmpty && grid[8, 0].text == " " && grid[9, 0].text == "$")
    }

    @Test("overwriting half of a wide character blanks the other half")
    func overwriteWide() {
        var grid = ScreenGrid(width: 6, height: 1)
        grid.put("金币", x: 0, y: 0, style: .plain)
        grid.put("x", x: 1, y: 0, style: .plain)
        #expect(grid.text == " x币  ")
        grid.put("y", x: 2, y: 0, style: .plain)
        #expect(grid.text == " xy   ")
    }

    @Test("a character of several scalars keeps them all, and cells of the same character are equal")
    func severalScalars() {
        var grid = ScreenGrid(width: 7, height: 1)
        grid.put("e\u{301}金❤\u{FE0F}", x: 0, y: 0, style: .plain)
        #expect(grid[0, 0].text == "e\u{301}" && grid[1, 0].text == "金" && grid[2, 0].text.isEmpty && grid[3, 0].text == "❤\u{FE0F}")
        #expect(grid[0, 0].scalar == nil && grid.text == "e\u{301}金❤\u{FE0F}   ")
        var again = ScreenGrid(width: 7, height: 1)
        again.put("e\u{301}金❤\u{FE0F}", x: 0, y: 0, style: .plain)
        #expect(again == grid)
        again.put("x", x: 2, y: 0, style: .plain)
        #expect(again.text == "e\u{301} x❤\u{FE0F}   " && again != grid)
    }

    @Test("every cell takes the columns ncurses draws it in: one spacing scalar and its zero-width marks, whatever the character (found in a QA walk: का left its second column stale)")
    func cellsAsNcursesDrawsThem() throws {
        let texts = ["R\u{915}\u{93E}\u{92E}", "👍🏽 up", "👨\u{200D}👩\u{200D}👧 pack", "🇨🇳 flag", "e\u{301}金❤\u{FE0F}", "กำ"]
        for text in texts {
            var grid = ScreenGrid(width: 16, height: 1)
            let used = grid.put(text, x: 0, y: 0, style: .plain)
            #expect(used == displayWidth(text), "\(text)")
            var column = 0
            var drawn: [Unicode.Scalar] = []
            while column < used {
                let cell = grid[column, 0]
                let scalars = Array(cell.text.unicodeScalars)
                let first = try #require(scalars.first, "\(text): column \(column) is a right half nobody drew")
                let columns = displayWidth(Character(first))
                #expect(columns >= 1 && scalars.dropFirst().allSatisfy { displayWidth(Character($0)) == 0 }, "\(text): \(scalars)")
                if columns == 2 { #expect(grid[column + 1, 0].isRightHalf, "\(text)") }
                drawn += scalars
                column += columns
            }
            // A zero-width joiner is left out: tmux draws a joined sequence as one glyph two columns wide.
            #expect(drawn == text.unicodeScalars.filter { $0 != "\u{200D}" }, "\(text): every scalar drawn, in order")
        }
    }

    @Test("a character is drawn with the scalars it was written with, not those of an equivalent one drawn before (found in a QA walk)")
    func equivalentCharactersKeepTheirScalars() {
        var grid = ScreenGrid(width: 3, height: 1)
        grid.put("e\u{301}\u{323}e\u{323}\u{301}\u{1EB9}\u{301}", x: 0, y: 0, style: .plain)
        let written: [[UInt32]] = [[0x65, 0x301, 0x323], [0x65, 0x323, 0x301], [0x1EB9, 0x301]]
        #expect((0..<3).map { grid[$0, 0].text.unicodeScalars.map(\.value) } == written)
    }
}

@Suite("A terminal that is not UTF-8 (LANG=C)")
struct ASCIIScreenTests {
    @Test("every cell is ASCII: frames, the cursor, prices as currency codes, Chinese transliterated; columns still line up")
    func productList() {
        var theme = Theme.monochrome
        theme.ascii = ASCIIText(yen: "CNY")
        for lang in [Language.en, .zh] {
            var state = GalleryScreen.all(catalog: shippedCatalog).first { $0.id == "hud-success" }!.state(lang)
            state.lang = lang
            let grid = Renderer.render(state, width: 80, height: 24, theme: theme)
            #expect(grid.lines.allSatisfy { $0.allSatisfy(\.isASCII) }, "\(grid.text)")
            #expect(grid.lines.allSatisfy { $0.count == 80 }, "\(grid.text)")
            #expect(grid.text.contains("+----"))
            #expect(grid.text.contains("CNY30"))
            // Nothing became "?" (the hint bar's "? help" is the key itself).
            #expect(!grid.lines.dropLast().joined().contains("?"), "\(grid.text)")
        }
        let zh = Renderer.render(GalleryScreen.all(catalog: shippedCatalog)[1].state(.zh), width: 80, height: 24, theme: theme).text
        #expect(zh.contains("jin bi"))
        // The prices stay right-aligned in their column, as in UTF-8 (a subscription's period follows its price).
        let rows = zh.split(separator: "\n").filter { $0.contains("CNY") }
        #expect(Set(rows.map { $0.range(of: "CNY")!.lowerBound.utf16Offset(in: $0) + $0[$0.range(of: "CNY")!.lowerBound...].prefix { $0 != " " && $0 != "/" }.count }).count == 1)
    }

    @Test("the login field's cursor is a bar, not a question mark (found by QA: \"Log in as: ?\")")
    func loginCursor() {
        var theme = Theme.monochrome
        theme.ascii = ASCIIText(yen: "CNY")
        for lang in [Language.en, .zh] {
            var state = AppState(lang: lang)
            state.loginText = "bo"
            let grid = Renderer.render(state, width: 80, height: 24, theme: theme)
            #expect(grid.lines.allSatisfy { $0.allSatisfy(\.isASCII) }, "\(grid.text)")
            #expect(!grid.lines.dropLast().joined().contains("?"), "\(grid.text)")
            #expect(grid.text.contains("bo|"), "\(grid.text)")
        }
    }
}

@Suite("The product list on a wide, a narrow and a non-UTF-8 terminal")
struct TerminalSizeSnapshotTests {
    @Test("snapshots", arguments: [("products-wide", 160, 24, false), ("products-narrow", 64, 18, false), ("products-ascii", 80, 24, true)])
    func sizes(_ name: String, _ width: Int, _ height: Int, _ ascii: Bool) throws {
        for lang in Language.allCases {
            let state = screen("sub-active").state(lang)
            var color = Theme.color, monochrome = Theme.monochrome
            if ascii { (color.ascii, monochrome.ascii) = (ASCIIText(yen: "CNY"), ASCIIText(yen: "CNY")) }
            try assertSnapshot("\(name).\(lang.rawValue)", color: Renderer.render(state, width: width, height: height, theme: color),
                               monochrome: Renderer.render(state, width: width, height: height, theme: monochrome))
        }
    }
}
