import Foundation
import IAPApp
import IAPCore
import IAPUI
import Testing

/// The screen (issue 12, defects 11 and 16, and the rough edges taken along): the count is never cut,
/// cut text says so, and the headless screen is the live one.
@Suite("Screen: nothing hidden, nothing cut silently, headless equals live")
struct ScreenInputTests {
    @Test("a long user name never hides the pending count (I6)", arguments: [64, 80, 100])
    func longUserName(width: Int) throws {
        let app = try Harness.paidWhile()
        var state = app.state
        for name in [String(repeating: "n", count: 24), String(repeating: "名", count: 24)] {
            state.user = name
            let top = Renderer.render(state, width: width, height: 24, theme: .monochrome).lines[0]
            #expect(top.contains("· pending 1 "), "\(top)")
            #expect(top.contains(name) || top.contains("…"), "a cut name is marked: \(top)")
            state.lang = .zh
            #expect(Renderer.render(state, width: width, height: 24, theme: .monochrome).lines[0].contains("· 待处理 1 "))
            state.lang = .en
        }
    }

    @Test("the inspector drawn headlessly (play, tests) shows the parties' records, as the live one does")
    func headlessInspector() throws {
        let app = try Harness.paidWhile()
        app.press(.char("i"))
        let text = app.screen()
        #expect(text.contains("Store queue (1)"), "\(text)")
        #expect(text.contains(app.state.pendingIds[0]))
        #expect(app.session.screen(width: 80, height: 24) == Renderer.render(app.state, width: 80, height: 24, theme: .monochrome,
                                                                            inspector: app.session.inspectorView(rows: 24)))
    }

    @Test("e over the inspector keeps its records: the store queue's count stays 1, not 0, under the card (found by QA in tmux)")
    func explanationOverTheInspectorKeepsItsRecords() throws {
        let app = try Harness.paidWhile()
        app.press(.char("i"))
        app.press(.char("e"))
        let text = app.screen(width: 100, height: 30)
        #expect(text.contains("What the user sees"), "\(text)")
        #expect(text.contains("Store queue (1)") && !text.contains("Store queue (0)"), "\(text)")
    }

    @Test("text cut to fit ends in …: the fault panel, the state browser, the timeline")
    func cutTextMarked() throws {
        var state = AppState()
        state.user = "alice"
        state.modal = .faultPanel(selection: 0)
        let panel = Renderer.render(state, width: 80, height: 24, theme: .monochrome).lines
        // "the product request answers after VALUE seconds" does not fit 80 columns beside its name.
        #expect(panel.contains { $0.contains("…") }, "\(panel.joined(separator: "\n"))")
        state.modal = .stateCatalog(selection: VisibleState.ids.firstIndex(of: "hud-disabled")!)
        state.lang = .en
        let browser = Renderer.render(state, width: 80, height: 24, theme: .monochrome).lines
        // "In-App Purchases disabled" is longer than the list column.
        #expect(browser.contains { $0.contains("In-App Purchases disab…") }, "\(browser.joined(separator: "\n"))")
        let app = try Harness.paidWhile()
        app.press(.char("i"))
        let inspector = app.session.screen(width: 64, height: 24).lines
        #expect(inspector.contains { $0.contains("…") }, "\(inspector.joined(separator: "\n"))")
    }

    @Test("while the backend is down and the balance was never read, it says unknown, not 0 coins")
    func balanceUnknown() throws {
        let app = try Harness(user: "alice", faults: [.backendDown])
        app.advance(0.5)
        #expect(!app.screen().contains("Balance 0 coins"), "\(app.screen())")
        #expect(app.screen().contains("Balance unknown"))
        app.press(.char("b"))
        app.advance(0.5)
        #expect(app.screen().contains("Balance 0 coins"))
    }

    @Test("until the backend's first answer the balance is said to be reading, not 0 coins (found by QA: a launch's first frame said Balance 0 coins)")
    func balanceBeforeFirstReading() throws {
        var faults = ArmedFaults()
        faults.insert(.backendSlow, FaultArm(value: "3"))
        let app = try Harness(user: "alice", faults: faults)
        app.advance(0.5)
        #expect(app.state.productsStatus == .loaded)
        #expect(!app.screen().contains("Balance 0 coins"), "\(app.screen())")
        #expect(app.screen().contains("Balance …"), "\(app.screen())")
        app.press(.char("l"))
        #expect(app.screen().contains("余额 …"), "\(app.screen())")
        app.advance(4)
        #expect(app.screen().contains("余额 0 金币"), "\(app.screen())")
    }

    @Test("the backend back after a login it missed: the balance is read again, not shown as 0 coins until f (found by QA in a tmux walk)")
    func balanceReadWhenBackendReturns() throws {
        let app = try Harness(user: "alice")
        app.advance(0.5)
        app.buy("com.iapsim.coins.60")
        app.advance(2)
        #expect(app.screen().contains("Balance 60 coins"), "\(app.screen())")
        app.press(.char("b"))
        app.logIn("alice")
        app.advance(0.5)
        #expect(app.screen().contains("Balance unknown"), "\(app.screen())")
        app.press(.char("b"))
        app.advance(0.5)
        #expect(app.screen().contains("Balance 60 coins"), "\(app.screen())")
    }

    @Test("the quit question covers the HUD it asks about, not one row off it", arguments: [HUD.Kind.purchasing, .confirming])
    func quitOverHUD(_ kind: HUD.Kind) {
        var state = AppState()
        state.user = "alice"
        state.productsStatus = .loaded
        state.products = shippedCatalog
        state.hud = HUD(kind, productId: shippedCatalog[1].id)
        state.modal = .quitConfirm
        let lines = Renderer.render(state, width: 80, height: 24, theme: .monochrome).lines
        #expect(lines.filter { $0.contains("┌") }.count == 1, "\(lines.joined(separator: "\n"))")
        #expect(lines.filter { $0.contains("└") }.count == 1)
    }

    @Test("a purchase the serial policy holds back says why", arguments: Language.allCases)
    func serialPolicySaysWhy(_ lang: Language) throws {
        let app = try Harness.paidWhile()
        app.press(.escape)  // Confirming… goes on in the background
        app.runtime.send(.setLanguage(lang))
        app.press(.down, .enter)
        let text = app.screen()
        #expect(text.contains(Text.unfinished(lang)), "\(text)")
        #expect(text.contains(lang == .en ? "one order at a time" : "一次只处理一笔订单"), "\(text)")
    }
}
