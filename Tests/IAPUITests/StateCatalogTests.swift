import Foundation
import IAPCore
import IAPUI
import Testing

@Suite("Every state explained, in both languages")
struct StateCatalogTests {
    /// States the app can put on screen, reached through the reducer's own vocabulary.
    static var reachableIds: [String] {
        var ids = HUD.Kind.allCases.map { "hud-" + $0.catalogName } + ["hud-confirming-retry"]
        let modals: [Modal] = [.help(page: 0), .quitConfirm, .unfinished(transactionId: "1", choice: 0), .logoutWarning(choice: 0),
                               .faultPanel(selection: 0), .scenarios(selection: 0), .inspector,
                               .explain(stateId: "login", under: nil), .stateCatalog(selection: 0)]
        for modal in modals {
            var state = AppState()
            state.user = "alice"
            state.modal = modal
            ids.append(state.visibleStateId)
        }
        var state = AppState()
        ids.append(state.visibleStateId)  // login
        state.user = "alice"
        for status in [AppState.ProductsStatus.loading, .empty, .failed] {
            state.productsStatus = status
            ids.append(state.visibleStateId)
        }
        state.productsStatus = .loaded
        ids.append(state.visibleStateId)
        state.faults = [.backendDown]
        ids.append(state.visibleStateId)
        state.faults = [.jailbroken]
        ids.append(state.visibleStateId)
        state.alarms = [.readFailed(user: "x")]
        ids.append(state.visibleStateId)
        return ids + ["products-pending", "too-small"]
    }

    @Test("a state the app can show without an explanation fails here")
    func everyStateExplained() {
        for id in Self.reachableIds {
            #expect(StateCatalog.entry(id) != nil, "no explanation for \(id)")
        }
        #expect(Set(StateCatalog.entries.map(\.id)).count == StateCatalog.entries.count, "an id is explained twice")
    }

    @Test("every explanation says all five things in both languages; how to reach it keeps its commands as typed and says the rest in Chinese (found in a QA walk: it was English in every Chinese explanation)")
    func explanationsComplete() {
        // Words of the English around the commands; a scenario's or a flag's name is one word with its hyphens.
        let english: Set = ["the", "on", "then", "or", "buy", "wait", "while", "with", "list", "press", "and", "to", "as", "in", "a"]
        for entry in StateCatalog.entries {
            for text in [entry.title, entry.sees, entry.underneath, entry.support] {
                #expect(!text.en.isEmpty && !text.zh.isEmpty, "\(entry.id)")
                #expect(text.en != text.zh, "\(entry.id): \(text.en) is not translated")
            }
            #expect(!entry.reach.en.isEmpty && !entry.reach.zh.isEmpty, "\(entry.id) does not say how to reach it")
            let words = entry.reach.zh.split { $0.isWhitespace || "(),;:,;:()、“”".contains($0) }
            #expect(!words.contains { english.contains($0.lowercased()) }, "\(entry.id): \(entry.reach.zh)")
        }
    }

    @Test("what differs in StoreKit 2 is said for every state of a purchase's life, in both languages, and shown with it")
    func storeKit2Differences() {
        let ids = Set(StateCatalog.entries.map(\.id))
        for (id, text) in StateCatalog.storeKit2 {
            #expect(ids.contains(id), "\(id) is not a state")
            #expect(!text.en.isEmpty && !text.zh.isEmpty && text.en != text.zh, "\(id)")
        }
        for id in ["products", "hud-purchasing", "hud-confirming", "hud-success", "hud-failed", "hud-cancelled", "hud-deferred",
                   "hud-restoring", "hud-restored", "prompt-unfinished", "unattributed", "hud-verify-failed", "sub-expired"] {
            #expect(StateCatalog.entry(id)?.storeKit2 != nil, "\(id) says nothing of StoreKit 2")
        }
        for lang in Language.allCases {
            var state = AppState(lang: lang)
            state.user = "alice"
            state.modal = .stateCatalog(selection: StateCatalog.entries.firstIndex { $0.id == "hud-deferred" }!)
            let screen = Renderer.render(state, width: 100, height: 40, theme: .monochrome).text
            #expect(screen.contains(Text.explainStoreKit2(lang)) && screen.contains(".pending"), "\(screen)")
        }
    }

    @Test("the gallery has one screen per explained state, and each shows what its explanation says")
    func galleryCoversCatalog() {
        let screens = GalleryScreen.all(catalog: shippedCatalog)
        #expect(screens.map(\.id) == StateCatalog.entries.map(\.id))
        for screen in screens where screen.id != "too-small" {
            #expect(screen.state(.en).visibleStateId == screen.id, "the \(screen.id) screen shows \(screen.state(.en).visibleStateId)")
        }
    }

    @Test("every sentence of the app, every key and every fault speaks both languages")
    func bilingual() {
        for text in IAPUI.Text.allCases {
            #expect(!text(.en).isEmpty && !text(.zh).isEmpty, "\(text)")
        }
        for binding in Keymap.bindings {
            #expect(binding.help.en != binding.help.zh, "\(binding.label)")
        }
        for row in FaultPanelRow.all {
            #expect(row.summary(.en) != row.summary(.zh), "\(row.label)")
        }
        let alarms: [Alarm] = [.writeFailed(transactionId: "1"), .readFailed(user: "a"), .storage(party: .store, detail: "disk I/O error"),
                               .verifyFailing(transactionId: "1", attempts: 10, reason: .backendUnreachable)]
        for alarm in alarms {
            #expect(alarm.text(.en) != alarm.text(.zh), "\(alarm)")
        }
        #expect(alarms[3].text(.zh).contains("后端不可达"))
    }

    @Test("the inspector's timeline is told in the screen's language")
    func timelineBilingual() {
        let order = PendingOrder(transactionId: "7", user: "alice", productId: "p", orderId: nil, purchasedAt: .init(timeIntervalSince1970: 0),
                                 price: "¥6", receiptHash: nil)
        let story: [(Action, [Effect])] = [
            (.launched(canMakePayments: false, user: "alice"), [.loadUser("alice")]),
            (.key(.enter), [.createOrder(user: "alice", productId: "p")]),
            (.orderCreated(user: "alice", productId: "p", .failure(.unreachable)), [.addPayment(Payment(productId: "p", applicationUsername: nil))]),
            (.storeUpdated([StoreTransaction(id: "7", productId: "p", state: .purchased, applicationUsername: nil, date: .init(timeIntervalSince1970: 0))]), [.persist(order, closingIntent: nil)]),
            (.persisted(order, ok: true), [.verify(order)]),
            (.verified(order, .retry(reason: .http(503))), [.wake(at: .init(timeIntervalSince1970: 3))]),
            (.verified(order, .valid), [.finish(transactionId: "7", user: "alice")]),
            (.finished(transactionId: "7", user: "alice", found: false), []),
            (.setFault(.backendDown, FaultArm(once: true)), []),
            (.alarm(.readFailed(user: "alice")), []),
        ]
        var timeline = Timeline()
        for (action, effects) in story { timeline.record(action, effects, from: AppState(), at: .init(timeIntervalSince1970: 0)) }
        let en = timeline.entries(.en).map(\.text), zh = timeline.entries(.zh).map(\.text)
        #expect(en.count == story.count)
        for (a, b) in zip(en, zh) { #expect(a != b, "\(a) is not translated") }
        #expect(zh[5].contains("HTTP 错误 503") && zh[5].contains("3 秒后重试"))
    }

    /// alice at the launch prompt, with `e` pressed over it.
    private static func explainingThePrompt() -> AppState {
        var state = AppState()
        state.user = "alice"
        state.productsStatus = .loaded
        state.modal = .unfinished(transactionId: "1", choice: 1)
        _ = state.reduce(.key(.char("e")), now: state.now)
        return state
    }

    @Test("no page of an explanation ends on a heading whose words are on the next page, in either language, at 64×20 and 80×24 (found in a QA walk)")
    func headingsKeepTheirWords() {
        for lang in Language.allCases {
            let headings = Set([Text.explainSees, .explainUnderneath, .explainStoreKit2, .explainSupport, .explainReach].map { $0(lang) })
            for (width, height) in [(64, 20), (80, 24)] {
                for entry in StateCatalog.entries {
                    for page in 0..<6 {
                        var state = AppState(lang: lang)
                        state.user = "alice"
                        state.modal = .explain(stateId: entry.id, under: nil, page: page)
                        let rows = Renderer.render(state, width: width, height: height, theme: .monochrome).lines
                        // The footer says which page of how many; the row above it is the page's last.
                        guard let footer = rows.firstIndex(where: { $0.contains("PgDn") }), footer > 0,
                              let match = rows[footer].firstMatch(of: /(\d+)\/(\d+)/), let count = Int(match.2), page < count else { break }
                        let last = rows[footer - 1].trimmingCharacters(in: CharacterSet(charactersIn: "│ "))
                        #expect(page == count - 1 || !headings.contains(last), "\(entry.id) \(lang) \(width)×\(height) page \(page + 1): \(last)")
                    }
                }
            }
        }
    }

    @Test("an explanation's footer keeps what fits whole, the page and how to turn and close it first, at 64 columns in either language (found in a QA walk: \"· E…\")")
    func footerWhole() {
        for lang in Language.allCases {
            var state = Self.explainingThePrompt()
            state.lang = lang
            let rows = Renderer.render(state, width: 64, height: 20, theme: .monochrome).lines
            let footer = rows.first { $0.contains("PgDn") } ?? ""
            #expect(footer.contains("1/") && footer.contains(Text.helpTurn(lang)) && !footer.contains("…"), "\(footer)")
        }
    }

    @Test("e explains the state on screen and gives it back; l switches the language at once")
    func explainAndLanguage() {
        var state = Self.explainingThePrompt()
        #expect(state.modal == .explain(stateId: "prompt-unfinished", under: .unfinished(transactionId: "1", choice: 1)))
        let screen = Renderer.render(state, width: 80, height: 24, theme: .monochrome).text
        #expect(screen.contains("What support should do"))
        _ = state.reduce(.key(.escape), now: state.now)
        #expect(state.modal == .unfinished(transactionId: "1", choice: 1))
        state.modal = nil
        _ = state.reduce(.key(.char("l")), now: state.now)
        #expect(state.lang == .zh)
        #expect(Renderer.render(state, width: 80, height: 24, theme: .monochrome).text.contains("待处理"))
    }

    @Test("e over the inspector leaves the inspector, not the product list, at the card's edges (found by QA: the list's heading showed beside the card)")
    func explanationOverTheInspector() {
        var state = AppState()
        state.user = "alice"
        state.productsStatus = .loaded
        state.modal = .inspector
        let inspector = Renderer.render(state, width: 120, height: 30, theme: .monochrome).lines
        _ = state.reduce(.key(.char("e")), now: state.now)
        #expect(state.modal == .explain(stateId: "inspector", under: .inspector))
        let explained = Renderer.render(state, width: 120, height: 30, theme: .monochrome).lines
        #expect(explained.joined().contains("What the user sees"))
        let edges = { (lines: [String]) in lines.map { String($0.prefix(2)) + "|" + String($0.suffix(2)) } }
        #expect(edges(explained) == edges(inspector), "\(explained.joined(separator: "\n"))")
    }

    @Test("the state browser says when the explanation beside the list is cut short, and how to read it whole (found by QA: Devices and accounts ended mid-sentence, no word of it)")
    func browserSaysItIsCut() throws {
        for lang in Language.allCases {
            var state = AppState()
            state.lang = lang
            state.user = "alice"
            let devices = try #require(StateCatalog.entries.firstIndex { $0.id == "devices" })
            state.modal = .stateCatalog(selection: devices)
            let cut = Renderer.render(state, width: 80, height: 24, theme: .monochrome).text
            #expect(cut.contains(Text.stateCatalogCut(lang)), "\(cut)")
            state.modal = .stateCatalog(selection: 0)  // the login screen's, short enough at 160×60
            #expect(!Renderer.render(state, width: 160, height: 60, theme: .monochrome).text.contains(Text.stateCatalogCut(lang)))
        }
    }

    @Test("at 64×18 an explanation that does not fit is paged: it says which page, PgDn reaches its last words and comes round to the first, PgUp goes back (found by QA: support's part could not be read)")
    func explanationPages() {
        var state = Self.explainingThePrompt()
        func screen() -> String { Renderer.render(state, width: 64, height: 18, theme: .monochrome).text }
        let first = screen()
        #expect(first.contains("What the user sees") && first.contains("1/") && first.contains("PgDn next page"), "\(first)")
        let reach = StateCatalog.entry("prompt-unfinished")!.reach.en
        let lastWords = String(reach.split(separator: " ").suffix(2).joined(separator: " "))
        #expect(!first.contains(lastWords))
        var turns = 0
        while !screen().contains(lastWords), turns < 10 {
            _ = state.reduce(.key(.pageDown), now: state.now)
            turns += 1
        }
        let last = screen()
        #expect(last.contains(lastWords), "\(last)")
        _ = state.reduce(.key(.pageDown), now: state.now)
        #expect(screen() == first)
        _ = state.reduce(.key(.pageUp), now: state.now)
        #expect(screen() == last)
    }

    @Test("every page of every explanation at 64×18 begins with words, never with the blank line between two sections")
    func pagesBeginWithWords() {
        for entry in StateCatalog.entries {
            var state = AppState()
            state.modal = .explain(stateId: entry.id, under: nil)
            for page in 0..<4 {
                state.modal = .explain(stateId: entry.id, under: nil, page: page)
                let rows = Renderer.render(state, width: 64, height: 18, theme: .monochrome).lines
                let top = rows.firstIndex { $0.contains("┌") }.map { rows[$0 + 1] } ?? ""
                #expect(top.dropFirst(2).contains { $0.isLetter || $0.isNumber || $0.isPunctuation }, "\(entry.id) page \(page + 1): \(rows.joined(separator: "\n"))")
            }
        }
    }

    @Test("every state's name in the browser's list is told apart from the others", arguments: [64, 80, 120])
    func namesApart(width: Int) {
        for lang in Language.allCases {
            var shown: [String: String] = [:]
            for (index, entry) in StateCatalog.entries.enumerated() {
                var state = AppState(lang: lang)
                state.user = "alice"
                state.modal = .stateCatalog(selection: index)
                let row = Renderer.render(state, width: width, height: 24, theme: .monochrome).lines.first { $0.contains("▸") } ?? ""
                // The selected row's name, as far as the list shows it (the explanation starts two spaces on).
                let name = String(row.split(separator: "▸", maxSplits: 1).last ?? "").components(separatedBy: "  ")[0]
                if let other = shown[name] { Issue.record("\(entry.id) and \(other) both read \"\(name)\" at \(width) columns") }
                shown[name] = entry.id
            }
        }
    }

    @Test("explanations wrap inside their box at every size, never splitting a wide character", arguments: [64, 80, 120])
    func wrapping(width: Int) {
        for lang in Language.allCases {
            for index in StateCatalog.entries.indices {
                var state = AppState(lang: lang)
                state.user = "alice"
                state.modal = .stateCatalog(selection: index)
                let grid = Renderer.render(state, width: width, height: 24, theme: .monochrome)
                for line in grid.lines {
                    #expect(displayWidth(line) == width, "\(line)")
                }
            }
        }
    }
}
