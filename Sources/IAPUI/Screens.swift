import Foundation
import IAPCore

/// The two full screens: login and the product list.
extension Canvas {
    mutating func drawLogin() {
        let boxWidth = 40
        let origin = centredFrame(innerWidth: boxWidth, innerHeight: 5)
        grid.put(Text.loginPrompt(lang), x: origin.x, y: origin.y + 1, style: theme.heading)
        let fieldX = origin.x + displayWidth(Text.loginPrompt(lang)) + 1
        let fieldWidth = boxWidth - (fieldX - origin.x)
        grid.put(padded(state.loginText + "▏", to: fieldWidth), x: fieldX, y: origin.y + 1, style: Style(underline: true))
        grid.put(Text.loginHint(lang), x: origin.x, y: origin.y + 3, style: theme.dimmed, limit: boxWidth)
    }

    mutating func drawProductList() {
        // With the backend down and nothing read from it yet, 0 would be a guess: say it is unknown.
        let unknown = state.faults.contains(.backendDown) && state.account == Account()
        let balance = unknown ? Text.balanceUnknown(lang) : "\(Text.balance(lang)) \(state.account.coins) \(Text.coins(lang))"
        grid.put(Text.products(lang), x: 2, y: 2, style: theme.heading)
        grid.put(balance, x: width - 2 - displayWidth(balance), y: 2, style: theme.heading)
        grid.put(String(repeating: "─", count: width - 4), x: 2, y: 3, style: theme.frame)

        switch state.productsStatus {
        case .loading:
            return
        case .empty, .failed:
            grid.put(Text.noProducts(lang), x: 3, y: 5, style: theme.bad)
            return
        case .loaded:
            break
        }
        let titleWidth = 18, kindWidth = 16, priceWidth = 7, markWidth = 9
        // Row: 1 margin, 3 marker, then the columns with a space after each, ending 1 short of the edge.
        let summaryWidth = max(width - 2 - 3 - (titleWidth + kindWidth + priceWidth + 4) - markWidth - 1, 0)
        let rows = max(height - 7, 1)
        let first = max(0, min(state.selection - rows + 1, state.products.count - rows))
        for (row, index) in (first..<min(first + rows, state.products.count)).enumerated() {
            let product = state.products[index]
            let selected = index == state.selection
            let style = selected ? theme.selected : theme.plain
            var line = selected ? " ▸ " : "   "
            line += padded(product.title[lang], to: titleWidth) + " "
            line += padded(product.kind.label(lang), to: kindWidth) + " "
            line += padded(product.summary[lang], to: summaryWidth) + " "
            line += padded(product.price[lang], to: priceWidth, alignRight: true) + " "
            line += padded(ownership(of: product), to: markWidth)
            grid.put(padded(line, to: width - 2), x: 1, y: 4 + row, style: style)
        }
    }

    private func ownership(of product: Product) -> String {
        guard !product.kind.isConsumable, state.account.owned.contains(product.id) else { return "" }
        return " " + Text.owned(lang)
    }
}
