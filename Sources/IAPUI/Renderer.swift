import Foundation
import IAPCore

/// Draws the whole app state into a fresh grid. Pure: the same state and size give the same screen.
public enum Renderer {
    public static let minimumWidth = 64
    public static let minimumHeight = 18

    public static func render(_ state: AppState, width: Int, height: Int, theme: Theme, inspector: InspectorView = InspectorView()) -> ScreenGrid {
        var grid = ScreenGrid(width: width, height: height)
        guard width >= minimumWidth, height >= minimumHeight else {
            drawTooSmall(&grid, state: state, theme: theme)
            return grid
        }
        var canvas = Canvas(grid: grid, state: state, theme: theme)
        canvas.drawTitleBar()
        if state.user == nil {
            canvas.drawLogin()
        } else {
            canvas.drawProductList()
        }
        canvas.drawBadges()
        canvas.drawHintBar()
        if state.user != nil, state.productsStatus == .loading { canvas.drawLoading() }
        if let hud = state.hud { canvas.drawHUD(hud) }
        switch state.modal {
        case let .unfinished(id, choice): canvas.drawUnfinishedPrompt(transactionId: id, choice: choice)
        case let .logoutWarning(choice): canvas.drawLogoutWarning(choice: choice)
        case .quitConfirm: canvas.drawQuitConfirm()
        case .help: canvas.drawHelp()
        case let .faultPanel(selection): canvas.drawFaultPanel(selection: selection)
        case let .scenarios(selection): canvas.drawScenarioList(selection: selection)
        case .inspector: canvas.drawInspector(inspector)
        case let .explain(id, _): canvas.drawExplanation(stateId: id)
        case let .stateCatalog(selection): canvas.drawStateCatalog(selection: selection)
        case nil: break
        }
        grid = canvas.grid
        return grid
    }

    /// Only `q` works on this screen (and `y`/Esc once q asked), so it says so.
    private static func drawTooSmall(_ grid: inout ScreenGrid, state: AppState, theme: Theme) {
        let lang = state.lang
        let keys = state.modal == .quitConfirm ? "\(Text.quitInFlight(lang)) \(Text.yesQuit(lang)) · \(Text.noStay(lang))" : Text.tooSmallQuit(lang)
        let message = "\(Text.tooSmall(lang)) \(minimumWidth)×\(minimumHeight) (\(grid.width)×\(grid.height)). \(keys)"
        for (y, line) in wrappedLines(message, width: grid.width).prefix(grid.height).enumerated() {
            grid.put(line.trimmingCharacters(in: .whitespaces), x: 0, y: y, style: theme.bad)
        }
    }
}

/// The grid being drawn, with the state and theme every widget needs.
struct Canvas {
    var grid: ScreenGrid
    let state: AppState
    let theme: Theme

    var lang: Language { state.lang }
    var width: Int { grid.width }
    var height: Int { grid.height }

    /// A centred frame of the given inner size; returns the inner top-left corner.
    mutating func centredFrame(innerWidth: Int, innerHeight: Int, title: String? = nil, style: Style? = nil) -> (x: Int, y: Int) {
        let w = min(innerWidth + 4, width)
        let h = min(innerHeight + 2, height - 2)
        let x = (width - w) / 2
        let y = max((height - h) / 2, 1)
        grid.frame(x: x, y: y, width: w, height: h, style: style ?? theme.frame, inside: theme.plain, title: title, titleStyle: theme.heading)
        return (x + 2, y + 1)
    }

    /// Writes `text` centred on row `y` within `[x, x + w)`.
    mutating func centred(_ text: String, x: Int, y: Int, width w: Int, style: Style) {
        let cut = truncated(text, to: w)
        grid.put(cut, x: x + max((w - displayWidth(cut)) / 2, 0), y: y, style: style)
    }

    func productTitle(_ id: String?) -> String {
        guard let id else { return "" }
        return state.product(id)?.title[lang] ?? id
    }

    func productLine(_ id: String?) -> String {
        guard let id else { return "" }
        guard let product = state.product(id) else { return id }
        return "\(product.title[lang]) · \(product.price[lang])"
    }
}
