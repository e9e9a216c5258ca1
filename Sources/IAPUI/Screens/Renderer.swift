import IAPCore

/// Draws the whole app state into a fresh grid: the screen cut into rectangles, each widget built from the state and
/// drawn into its own. Pure: the same state and size give the same screen.
public enum Renderer {
    public static let minimumWidth = 64
    public static let minimumHeight = 18

    public static func render(_ state: AppState, width: Int, height: Int, theme: Theme, inspector: InspectorView = InspectorView()) -> ScreenGrid {
        // Every text is measured, cut and drawn through the same fallback, so that columns line up in ASCII too.
        ASCIIText.$current.withValue(theme.ascii) {
            draw(state, width: width, height: height, theme: theme, inspector: inspector)
        }
    }

    /// What the terminal shows the moment the app starts, before any party's file is read: the title bar and nothing
    /// that depends on data, as iOS shows an app's launch screen while the app loads (Apple asks that a launch screen
    /// hold nothing that changes). The app's first state replaces it.
    public static func launchScreen(lang: Language, width: Int, height: Int, theme: Theme) -> ScreenGrid {
        ASCIIText.$current.withValue(theme.ascii) {
            var grid = ScreenGrid(width: width, height: height)
            guard width > 0, height > 0 else { return grid }
            TitleBar(title: Text.appTitle(lang), status: nil, style: theme.titleBar).draw(in: Rect(width: width, height: height).splitTop(1).0, on: &grid)
            return grid
        }
    }

    private static func draw(_ state: AppState, width: Int, height: Int, theme: Theme, inspector: InspectorView) -> ScreenGrid {
        var grid = ScreenGrid(width: width, height: height)
        let screen = Rect(width: width, height: height)
        let view = StateView(state: state, theme: theme)
        guard width >= minimumWidth, height >= minimumHeight else {
            view.tooSmall(screen).draw(in: screen, on: &grid)
            return grid
        }
        let layout = Layout(screen)
        view.titleBar.draw(in: layout.titleBar, on: &grid)
        if state.user == nil {
            view.login.draw(in: layout.middle, on: &grid)
        } else {
            view.productList.draw(in: layout.shop, on: &grid)
        }
        view.badges.draw(in: layout.badges, on: &grid)
        view.hints.draw(in: layout.hints, on: &grid)
        if state.user != nil, state.productsStatus == .loading { view.loading.draw(in: layout.middle, on: &grid) }
        view.hud?.draw(in: layout.middle, on: &grid)
        drawModal(state.modal, view: view, layout: layout, inspector: inspector, on: &grid)
        return grid
    }

    /// `modal` over the screen drawn so far; an explanation over what it explains, so that the card's edges show it.
    private static func drawModal(_ modal: Modal?, view: StateView, layout: Layout, inspector: InspectorView, on grid: inout ScreenGrid) {
        let theme = view.theme
        switch modal {
        case let .unfinished(id, choice): view.unfinishedPrompt(transactionId: id, choice: choice).draw(in: layout.middle, on: &grid)
        case let .logoutWarning(choice): view.logoutWarning(choice: choice).draw(in: layout.middle, on: &grid)
        case .quitConfirm: view.quitConfirm(over: layout.middle).draw(in: layout.middle, on: &grid)
        case let .help(page, _): view.help(page: page).draw(in: layout.middle, on: &grid)
        case .inspector, .compensateConfirm:
            grid.fill(layout.inspector, style: theme.plain)
            let (columns, timeline) = layout.inspectorParts
            view.inspectorColumns(inspector).draw(in: columns, on: &grid)
            if inspector.notifications.isEmpty {
                view.timeline(inspector).draw(in: timeline, on: &grid)
            } else {
                // Apple's notifications take the timeline's top rows: a few, newest last, under their own heading, with a
                // blank row under them where there is room; the timeline keeps its heading and at least one entry.
                let rows = min(2 + inspector.notifications.count, max((timeline.height + 1) / 2 - 1, 3), max(timeline.height - 3, 0))
                let gap = timeline.height - rows >= 5 ? 1 : 0
                let (notifications, rest) = timeline.splitTop(rows + gap)
                view.notifications(inspector).draw(in: notifications.splitTop(rows).0, on: &grid)
                view.timeline(inspector).draw(in: rest, on: &grid)
            }
            if case let .compensateConfirm(orderId, transactionId) = modal {
                view.compensateConfirm(orderId: orderId, transactionId: transactionId).draw(in: layout.middle, on: &grid)
            }
        case let .explain(id, under, page):
            drawModal(under, view: view, layout: layout, inspector: inspector, on: &grid)
            view.explanation(stateId: id, page: page)?.draw(in: layout.middle, on: &grid)
        case let .redeemCode(text): view.redeemSheet(text).draw(in: layout.middle, on: &grid)
        case .faultPanel, .scenarios, .stateCatalog, .subscriptions, .panel: view.listPanel(modal)?.draw(in: layout.middle, on: &grid)
        case nil: break
        }
    }
}

/// Where everything goes on a screen of at least the minimum size.
struct Layout {
    let titleBar: Rect
    /// Between the title bar and the hint bar: what dialogs centre in, over the badges if they must.
    let middle: Rect
    /// The product list under its heading, a blank row above and below.
    let shop: Rect
    /// The inspector covers everything down to the badges, which stay in view.
    let inspector: Rect
    let badges: Rect
    let hints: Rect

    init(_ screen: Rect) {
        let (top, rest) = screen.splitTop(1)
        let (body, bottom) = rest.splitBottom(2)
        titleBar = top
        middle = screen.inset(dy: 1)
        shop = body.splitTop(1).rest.splitBottom(1).rest
        inspector = body
        badges = bottom.row(0).inset(dx: 1)
        hints = bottom.row(1).splitLeft(1).rest
    }

    /// The three columns over the timeline; half the height, less the headings, goes to the columns' records.
    var inspectorParts: (columns: Rect, timeline: Rect) {
        let records = max((inspector.height - 2) / 2 - 1, 3)
        let (columns, rest) = inspector.splitTop(2 + records)
        // A blank row above the timeline and below it, and a column of margin on each side.
        return (columns, Rect(x: rest.x + 1, y: rest.y + 1, width: rest.width - 2, height: rest.height - 2))
    }
}
