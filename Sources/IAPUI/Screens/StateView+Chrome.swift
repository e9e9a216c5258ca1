import IAPCore

/// The title bar, the badge line and the key-hint bar that frame every screen.
extension StateView {
    var titleBar: TitleBar {
        TitleBar(title: Text.appTitle(lang), status: .init(userLabel: Text.user(lang), user: state.user ?? "—", pendingLabel: Text.pending(lang),
                                                           pending: state.pendingCount), style: theme.titleBar)
    }

    var badges: BadgeLine {
        // Backend down first, in words: it changes what every other screen means.
        let down = state.faults.contains(.backendDown) ? [Text.backendDownBadge(lang)] : []
        // The device's Apple ID, once one was signed in: who pays for whoever is logged in (A1).
        let appleId = state.device.appleId.map { ["\(Text.appleIdBadge(lang)) \($0)"] } ?? []
        let others = appleId + state.faults.filter { $0 != .backendDown }.map { state.faults.label($0) }
            + (state.servingAt.map { ["\(Text.servingBadge(lang)) \($0)"] } ?? [])
        let alarm = state.alarms.last.map { "\(Text.alarm(lang)): \($0.text(lang))" }
        // StoreKit 2 changes what every purchase screen means underneath (the token, the signed transaction).
        // So does a backend that learns from notifications rather than receipts.
        // In shorter words where the line is crowded, rather than not at all.
        let api = state.serverAPIBackend, two = state.storeKit == .two
        let forms = [[api ? Text.serverAPIBadge(lang) : nil, two ? "\(Text.storeKitBadge(lang)) 2" : nil],
                     [api ? "Server API" : nil, two ? "SK2" : nil], [api ? "API" : nil, two ? "SK2" : nil]]
        let settings = api || two ? forms.map { $0.compactMap { $0 }.joined(separator: " · ") } : []
        return BadgeLine(badges: down + others, alarm: alarm, settings: settings, theme: theme)
    }

    var hints: HintBar {
        HintBar(hints: state.offeredHints.map { binding in
            (binding.label, binding.hintWords(over: state.modal)[lang], Keymap.keptLongest.contains(binding.command))
        }, theme: theme)
    }

    /// Only `q` works on this screen (and `y`/Esc once q asked), so it says so.
    func tooSmall(_ screen: Rect) -> TooSmallNotice {
        let keys = state.modal == .quitConfirm ? "\(Text.quitInFlight(lang)) \(Text.yesQuit(lang)) · \(Text.noStay(lang))" : Text.tooSmallQuit(lang)
        let stop = lang == .zh ? "。" : ". "
        let message = "\(Text.tooSmall(lang)) \(Renderer.minimumWidth)×\(Renderer.minimumHeight) (\(screen.width)×\(screen.height))\(stop)\(keys)"
        return TooSmallNotice(message: message, style: theme.bad)
    }
}
