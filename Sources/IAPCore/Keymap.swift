/// What a key asks for. The keymap turns keys into commands; the reducer carries them out. A script names one as
/// `@name` (`press @toggle-backend`), whichever key it is bound to.
public enum Command: String, Sendable, Equatable, CaseIterable {
    case up, down
    case pageUp = "page-up", pageDown = "page-down", first, last, choose, back
    case logout = "log-out", help, quit
    case confirm = "confirm-quit", otherChoice = "other-choice", toggleBackend = "toggle-backend", foreground
    case skipTime = "skip-time", erase
    case faultPanel = "faults", scenarios, inspector, language
    case armOnce = "arm-once", explain
    case stateCatalog = "every-state", assignUnclaimed = "assign-unclaimed"
    case manageSubscriptions = "subscriptions", toggleAutoRenew = "auto-renew", refund, restore
    case compensate
}

/// Where the keys go right now: the innermost thing on screen takes them.
public enum KeyContext: Sendable, Equatable, CaseIterable {
    /// The login screen with nothing typed yet, where `q` and `?` still mean quit and help.
    case loginEmpty
    case login
    case products
    case hud
    case prompt
    case help
    case quitConfirm
    /// Support is asked whether to compensate an order by hand.
    case compensateConfirm
    /// The fault panel: a list to move in, arm (Enter) or arm once (o).
    case panel
    /// The scenario list: a list to move in and start one from.
    case scenarioList
    /// Every state explained: a list to move in; the explanation follows the cursor.
    case stateBrowser
    case inspector
    case explain
    /// Settings › Subscriptions: a list to move in; Enter turns the selected one's auto-renew off or on.
    case subscriptionList
}

/// One row of the keymap. The same table dispatches keys, fills the hint bar and the `?` overlay.
public struct KeyBinding: Sendable {
    public let keys: [Key]
    public let label: String
    /// The long form, for the `?` overlay.
    public let help: Localized
    /// The short form, for the hint bar.
    public let hint: Localized?
    public let command: Command
    public let contexts: Set<KeyContext>
}

public enum Keymap {
    /// Where `q`, `?` and `E` work: everywhere but the quit question (it takes `y` or Esc) and a login name being typed.
    /// On the login screen letters are the name, so of the letters only `q` (while the name is empty) is a command
    /// there; `?` is not a letter.
    public static let anywhere: Set<KeyContext> = Set(KeyContext.allCases).subtracting([.login, .quitConfirm])

    /// The product list and the list overlays, where ↑/↓, PgUp/PgDn and Home/End move (PgUp/PgDn also turn the pages
    /// of `?`).
    public static let lists: Set<KeyContext> = [.products, .panel, .scenarioList, .stateBrowser, .subscriptionList]

    /// How far PgUp/PgDn move.
    public static let page = 10

    public static let bindings: [KeyBinding] = [
        KeyBinding(keys: [.up, .char("k")], label: "↑/k", help: Localized(en: "move up", zh: "上移"),
                   hint: Localized(en: "up", zh: "上移"),
                   command: .up, contexts: lists),
        KeyBinding(keys: [.down, .char("j")], label: "↓/j", help: Localized(en: "move down", zh: "下移"),
                   hint: Localized(en: "down", zh: "下移"),
                   command: .down, contexts: lists),
        KeyBinding(keys: [.pageUp], label: "PgUp", help: Localized(en: "a page up", zh: "上翻一页"), hint: nil,
                   command: .pageUp, contexts: lists.union([.help])),
        KeyBinding(keys: [.pageDown], label: "PgDn", help: Localized(en: "a page down", zh: "下翻一页"), hint: nil,
                   command: .pageDown, contexts: lists.union([.help])),
        KeyBinding(keys: [.home], label: "Home", help: Localized(en: "to the first", zh: "到第一项"), hint: nil,
                   command: .first, contexts: lists),
        KeyBinding(keys: [.end], label: "End", help: Localized(en: "to the last", zh: "到最后一项"), hint: nil,
                   command: .last, contexts: lists),
        KeyBinding(keys: [.enter], label: "Enter", help: Localized(en: "buy / log in / take default", zh: "购买 / 登录 / 默认选项"),
                   hint: Localized(en: "choose", zh: "确定"),
                   command: .choose, contexts: [.loginEmpty, .login, .products, .prompt, .panel, .scenarioList]),
        KeyBinding(keys: [.enter], label: "Enter", help: Localized(en: "cancel / resume auto-renew", zh: "取消 / 恢复自动续期"),
                   hint: Localized(en: "auto-renew on/off", zh: "自动续期开/关"),
                   command: .toggleAutoRenew, contexts: [.subscriptionList]),
        KeyBinding(keys: [.left, .right, .tab], label: "←/→/Tab", help: Localized(en: "switch button", zh: "切换按钮"),
                   hint: Localized(en: "switch", zh: "切换"),
                   command: .otherChoice, contexts: [.prompt]),
        KeyBinding(keys: [.escape], label: "Esc", help: Localized(en: "back / dismiss / safe choice", zh: "返回 / 关闭 / 安全选项"),
                   hint: Localized(en: "back", zh: "返回"),
                   command: .back, contexts: [.login, .hud, .prompt, .help, .quitConfirm, .compensateConfirm, .panel, .scenarioList, .stateBrowser, .inspector, .explain,
                                              .subscriptionList]),
        KeyBinding(keys: [.backspace], label: "⌫", help: Localized(en: "erase a letter", zh: "删除一个字"),
                   hint: nil,
                   command: .erase, contexts: [.login]),
        KeyBinding(keys: [.char("b")], label: "b", help: Localized(en: "backend up / down", zh: "切换后端可达"),
                   hint: nil,
                   command: .toggleBackend, contexts: [.products, .hud]),
        KeyBinding(keys: [.char("f")], label: "f", help: Localized(en: "foreground: retry now", zh: "回到前台:立即重试"),
                   hint: nil,
                   command: .foreground, contexts: [.products, .hud]),
        KeyBinding(keys: [.char("t")], label: "t", help: Localized(en: "skip to the next retry/reply", zh: "跳到下一次重试或回应"),
                   hint: nil,
                   command: .skipTime, contexts: [.products, .hud]),
        KeyBinding(keys: [.char("o")], label: "o", help: Localized(en: "arm one-shot (fault panel)", zh: "只触发一次(故障面板)"),
                   hint: Localized(en: "once", zh: "一次"),
                   command: .armOnce, contexts: [.panel]),
        KeyBinding(keys: [.char("a")], label: "a", help: Localized(en: "assign unclaimed (support)", zh: "分配未认领付款(客服)"),
                   hint: Localized(en: "assign unclaimed", zh: "分配未认领"),
                   command: .assignUnclaimed, contexts: [.inspector]),
        KeyBinding(keys: [.char("m")], label: "m", help: Localized(en: "manage subscriptions", zh: "管理订阅"),
                   hint: Localized(en: "subscriptions", zh: "订阅"),
                   command: .manageSubscriptions, contexts: [.products, .subscriptionList]),
        KeyBinding(keys: [.char("r")], label: "r", help: Localized(en: "refund latest (Apple side)", zh: "退款最近一笔(Apple 侧)"),
                   hint: Localized(en: "refund", zh: "退款"),
                   command: .refund, contexts: [.inspector]),
        KeyBinding(keys: [.char("c")], label: "c", help: Localized(en: "compensate an order", zh: "人工补单"),
                   hint: Localized(en: "compensate", zh: "补单"),
                   command: .compensate, contexts: [.inspector]),
        KeyBinding(keys: [.char("F")], label: "F", help: Localized(en: "faults, crash now, reinstall", zh: "故障、立即崩溃、重装"),
                   hint: nil,
                   command: .faultPanel, contexts: [.products, .hud, .panel, .scenarioList, .stateBrowser]),
        KeyBinding(keys: [.char("S")], label: "S", help: Localized(en: "scenarios: known loss cases", zh: "场景:已知丢单情形"),
                   hint: nil,
                   command: .scenarios, contexts: [.products, .panel, .scenarioList, .stateBrowser]),
        KeyBinding(keys: [.char("i")], label: "i", help: Localized(en: "inspector: parties, timeline", zh: "检查器:三方与时间线"),
                   hint: nil,
                   command: .inspector, contexts: [.products, .hud, .prompt, .inspector]),
        KeyBinding(keys: [.char("e")], label: "e", help: Localized(en: "explain what is on screen", zh: "解释当前画面"),
                   hint: Localized(en: "explain", zh: "解释"),
                   command: .explain, contexts: [.products, .hud, .prompt, .help, .panel, .scenarioList, .stateBrowser, .inspector, .explain]),
        KeyBinding(keys: [.char("E")], label: "E", help: Localized(en: "every state, explained", zh: "所有状态的说明"),
                   hint: nil,
                   command: .stateCatalog, contexts: anywhere.subtracting([.loginEmpty])),
        KeyBinding(keys: [.char("l")], label: "l", help: Localized(en: "language: English / 简体中文", zh: "语言:English / 简体中文"),
                   hint: nil,
                   command: .language, contexts: [.products, .hud, .inspector]),
        KeyBinding(keys: [.char("R")], label: "R", help: Localized(en: "restore purchases", zh: "恢复购买"),
                   hint: Localized(en: "restore", zh: "恢复购买"),
                   command: .restore, contexts: [.products]),
        KeyBinding(keys: [.char("L")], label: "L", help: Localized(en: "log out", zh: "退出登录"),
                   hint: Localized(en: "log out", zh: "退出登录"),
                   command: .logout, contexts: [.products]),
        KeyBinding(keys: [.char("?")], label: "?", help: Localized(en: "help: every key", zh: "帮助:所有按键"),
                   hint: Localized(en: "help", zh: "帮助"),
                   command: .help, contexts: anywhere),
        KeyBinding(keys: [.char("q")], label: "q", help: Localized(en: "quit (asks if buying)", zh: "退出(购买中会先确认)"),
                   hint: Localized(en: "quit", zh: "退出"),
                   command: .quit, contexts: anywhere),
        KeyBinding(keys: [.char("y")], label: "y", help: Localized(en: "yes (quit, compensate)", zh: "确认(退出、补单)"),
                   hint: Localized(en: "yes", zh: "确认"),
                   command: .confirm, contexts: [.quitConfirm, .compensateConfirm]),
    ]

    public static func command(for key: Key, in context: KeyContext) -> Command? {
        bindings.first { $0.contexts.contains(context) && $0.keys.contains(key) }?.command
    }

    /// The key a command is bound to, for scripts that name commands instead of keys.
    public static func key(for command: Command) -> Key? {
        bindings.first { $0.command == command }?.keys.first
    }

    public static func hints(for context: KeyContext) -> [KeyBinding] {
        bindings.filter { $0.hint != nil && $0.contexts.contains(context) }
    }
}

extension AppState {
    public var keyContext: KeyContext {
        switch modal {
        case .help: return .help
        case .quitConfirm: return .quitConfirm
        case .compensateConfirm: return .compensateConfirm
        case .unfinished, .logoutWarning: return .prompt
        case .faultPanel: return .panel
        case .scenarios: return .scenarioList
        case .stateCatalog: return .stateBrowser
        case .inspector: return .inspector
        case .explain: return .explain
        case .subscriptions: return .subscriptionList
        case nil: break
        }
        if user == nil { return loginText.isEmpty ? .loginEmpty : .login }
        return hud == nil ? .products : .hud
    }
}
