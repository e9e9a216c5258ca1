import Foundation
import IAPCore
import IAPUI
import MockStore
import Testing

private let catalog = try! CatalogLoader.load(
    path: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("assets/catalog.json").path)
private let now = Date(timeIntervalSince1970: 1_800_000_000)

/// A logged-in user with a balance, one owned product and a catalog loaded.
private func shoppingState(_ lang: Language) -> AppState {
    var state = AppState(lang: lang, now: now)
    state.products = catalog
    state.productsStatus = .loaded
    state.user = "alice"
    state.account = Account(coins: 120, owned: ["com.iapsim.noads"])
    return state
}

private let pendingOrder = PendingOrder(
    transactionId: "1000000007", user: "alice", productId: "com.iapsim.coins.300", orderId: "ORD-000007",
    purchasedAt: now.addingTimeInterval(-60), price: "¥30", receiptHash: "ab12", attempts: 2,
    lastAttemptAt: now.addingTimeInterval(-2))

/// A screen: the shopping state in a language, then `change`d.
private func shopping(_ change: @escaping @Sendable (inout AppState) -> Void = { _ in }) -> @Sendable (Language) -> AppState {
    { lang in
        var state = shoppingState(lang)
        change(&state)
        return state
    }
}

/// A HUD over the product list for the order `pendingOrder`, then `change`d.
private func hud(_ kind: HUD.Kind, _ change: @escaping @Sendable (inout AppState) -> Void = { _ in }) -> @Sendable (Language) -> AppState {
    shopping {
        $0.hud = HUD(kind, productId: "com.iapsim.coins.300", transactionId: pendingOrder.transactionId)
        change(&$0)
    }
}

/// Every screen a person can see, by name.
private let screens: [(String, @Sendable (Language) -> AppState)] = [
    ("login", { lang in
        var state = AppState(lang: lang, now: now)
        state.loginText = "alice"
        return state
    }),
    ("products", shopping()),
    ("loading", shopping { $0.productsStatus = .loading }),
    ("no-products", shopping { $0.productsStatus = .empty }),
    ("hud-purchasing", hud(.purchasing)),
    ("hud-confirming", hud(.confirming)),
    ("hud-confirming-retry", hud(.confirming) {
        $0.orders = [pendingOrder.transactionId: pendingOrder]
        $0.triesSinceTrigger = [pendingOrder.transactionId: 2]
        $0.faults = [.backendDown]
    }),
    ("hud-success", hud(.success)),
    ("hud-failed", hud(.failed)),
    ("hud-cancelled", hud(.cancelled)),
    ("hud-deferred", hud(.deferred)),
    ("hud-disabled", hud(.disabled)),
    ("hud-verify-failed", hud(.verifyFailed)),
    ("prompt-unfinished", shopping {
        $0.orders = [pendingOrder.transactionId: pendingOrder]
        $0.modal = .unfinished(transactionId: pendingOrder.transactionId, choice: 0)
    }),
    ("logout-warning", shopping {
        $0.orders = [pendingOrder.transactionId: pendingOrder]
        $0.modal = .logoutWarning(choice: 0)
    }),
    ("quit-confirm", hud(.purchasing) { $0.modal = .quitConfirm }),
    ("help", shopping { $0.modal = .help }),
]

@Suite("Whole screens at 80×24, colour and monochrome, English and Chinese")
struct ScreenSnapshotTests {
    static let cases = screens.flatMap { name, make in Language.allCases.map { (name, $0) } }

    @Test("screen matches its snapshot", arguments: cases.map { "\($0.0).\($0.1.rawValue)" })
    func snapshot(_ id: String) throws {
        let parts = id.split(separator: ".")
        let name = String(parts[0]), lang = Language(rawValue: String(parts[1]))!
        let state = screens.first { $0.0 == name }!.1(lang)
        try assertSnapshot(
            id,
            color: Renderer.render(state, width: 80, height: 24, theme: .color),
            monochrome: Renderer.render(state, width: 80, height: 24, theme: .monochrome))
    }

    @Test("a terminal smaller than 64×18 says which size it needs")
    func tooSmall() {
        let text = Renderer.render(shoppingState(.en), width: 40, height: 10, theme: .color).text
        #expect(text.contains("need at least 64×18"))
        #expect(text.contains("(40×10)"))
    }

    @Test("the status line always names the user and the pending count (I6)", arguments: screens.map(\.0))
    func statusLine(_ name: String) {
        let state = screens.first { $0.0 == name }!.1(.en)
        let top = Renderer.render(state, width: 80, height: 24, theme: .color).lines[0]
        #expect(top.contains("user \(state.user ?? "—") · pending \(state.pendingCount)"))
    }

    @Test("Chinese product rows line up: every row is exactly as wide as the screen", arguments: [64, 80, 101])
    func cjkAlignment(width: Int) {
        let grid = Renderer.render(shoppingState(.zh), width: width, height: 24, theme: .color)
        for line in grid.lines {
            #expect(displayWidth(line) == width, "\(line)")
        }
        #expect(grid.text.contains("月度会员"))
        #expect(grid.text.contains("余额 120 金币"))
    }

    @Test("the help overlay lists every binding of the keymap that dispatches keys")
    func helpListsKeymap() {
        var state = shoppingState(.en)
        state.modal = .help
        let text = Renderer.render(state, width: 80, height: 24, theme: .color).text
        for binding in Keymap.bindings {
            #expect(text.contains(binding.label) && text.contains(binding.help[.en]), "\(binding.label)")
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

    @Test("overwriting half of a wide character blanks the other half")
    func overwriteWide() {
        var grid = ScreenGrid(width: 6, height: 1)
        grid.put("金币", x: 0, y: 0, style: .plain)
        grid.put("x", x: 1, y: 0, style: .plain)
        #expect(grid.text == " x币  ")
    }
}
