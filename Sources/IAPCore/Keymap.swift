/// What a key asks for. The keymap turns keys into commands; the reducer carries them out. A script names one as
/// `@name` (`press @toggle-backend`), whichever key it is bound to. Open, so that a panel declares the commands of its
/// own keys beside the rest of it.
public struct Command: RawRepresentable, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    public let rawValue: String

    /// Only a command some binding has: a script's `@name` means one key.
    public init?(rawValue: String) {
        guard let known = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = known
    }

    public init(_ name: String) {
        rawValue = name
    }

    public var description: String { rawValue }

    /// Every command has one binding (a test holds it), so the bindings name them all.
    public static var allCases: [Command] { Keymap.bindings.map(\.command) }

    public static let up = Command("up"), down = Command("down")
    public static let pageUp = Command("page-up"), pageDown = Command("page-down"), first = Command("first"), last = Command("last")
    public static let choose = Command("choose"), back = Command("back")
    public static let logout = Command("log-out"), help = Command("help"), quit = Command("quit")
    public static let confirm = Command("confirm-quit"), otherChoice = Command("other-choice"), toggleBackend = Command("toggle-backend")
    public static let foreground = Command("foreground")
    public static let skipTime = Command("skip-time"), erase = Command("erase")
    public static let inspector = Command("inspector"), language = Command("language")
    public static let explain = Command("explain")
    public static let assignUnclaimed = Command("assign-unclaimed")
    public static let refund = Command("refund"), restore = Command("restore")
    public static let compensate = Command("compensate")
    public static let chooseOffer = Command("offer")
}

/// Where the keys go right now: the innermost thing on screen takes them. Open, so that a panel declares its own.
public struct KeyContext: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    public let name: String

    public init(_ name: String) {
        self.name = name
    }

    public var description: String { name }

    public static var allCases: [KeyContext] {
        [.loginEmpty, .login, .products, .hud, .prompt, .help, .quitConfirm, .compensateConfirm, .inspector, .explain, .redeemSheet]
            + ListPanels.all.map(\.context)
    }

    /// The login screen with nothing typed yet, where `q` and `?` still mean quit and help.
    public static let loginEmpty = KeyContext("loginEmpty")
    public static let login = KeyContext("login")
    public static let products = KeyContext("products")
    public static let hud = KeyContext("hud")
    public static let prompt = KeyContext("prompt")
    public static let help = KeyContext("help")
    public static let quitConfirm = KeyContext("quitConfirm")
    /// Support is asked whether to compensate an order by hand.
    public static let compensateConfirm = KeyContext("compensateConfirm")
    public static let inspector = KeyContext("inspector")
    public static let explain = KeyContext("explain")
    /// The offer code redemption sheet, where letters are the code.
    public static let redeemSheet = KeyContext("redeemSheet")
}

/// One row of the keymap. The same table dispatches keys, fills the hint bar and the `?` overlay; the words for both
/// are the screens' (`KeyWords` in IAPUI).
public struct KeyBinding: Sendable {
    /// Whether the hint bar offers the key where it works.
    public enum Hint: Sendable { case offered }

    public let keys: [Key]
    public let label: String
    public let hint: Hint?
    public let command: Command
    public let contexts: Set<KeyContext>

    public init(keys: [Key], label: String, hint: Hint? = nil, command: Command, contexts: Set<KeyContext>) {
        self.keys = keys
        self.label = label
        self.hint = hint
        self.command = command
        self.contexts = contexts
    }
}

public enum Keymap {
    /// Where `q`, `?` and `E` work: everywhere but the quit question (it takes `y` or Esc) and a login name being typed.
    /// On the login screen letters are the name, so of the letters only `q` (while the name is empty) is a command
    /// there; `?` is not a letter.
    public static let anywhere: Set<KeyContext> = Set(KeyContext.allCases).subtracting([.login, .quitConfirm, .redeemSheet])

    /// The product list and the list panels, where ↑/↓, PgUp/PgDn and Home/End move (PgUp/PgDn also turn the pages
    /// of `?`).
    public static let lists: Set<KeyContext> = ListPanels.contexts.union([.products])

    /// The commands that move a cursor or scroll, and do nothing else.
    public static let moves: Set<Command> = [.up, .down, .pageUp, .pageDown, .first, .last]

    /// How far PgUp/PgDn move.
    public static let page = 10

    /// The app's own keys, then each later panel's.
    public static let bindings: [KeyBinding] = own + ListPanels.all.flatMap(\.bindings)

    /// The keys of the app itself, in the order `?` and the hint bar list them; the four list panels that came first keep
    /// their keys here, where those screens have always shown them.
    static let own: [KeyBinding] = [
        KeyBinding(keys: [.up, .char("k")], label: "↑/k", hint: .offered, command: .up, contexts: lists),
        KeyBinding(keys: [.down, .char("j")], label: "↓/j", hint: .offered, command: .down, contexts: lists),
        KeyBinding(keys: [.pageUp], label: "PgUp/Dn", command: .pageUp, contexts: lists.union([.help, .inspector, .explain])),
        KeyBinding(keys: [.pageDown], label: "PgUp/Dn", command: .pageDown, contexts: lists.union([.help, .inspector, .explain])),
        KeyBinding(keys: [.home], label: "Home", command: .first, contexts: lists),
        KeyBinding(keys: [.end], label: "End", command: .last, contexts: lists),
        KeyBinding(keys: [.enter], label: "Enter", hint: .offered, command: .choose, contexts: [.loginEmpty, .login, .products, .prompt, .panel, .scenarioList, .deviceList, .redeemSheet]),
        KeyBinding(keys: [.enter], label: "Enter", hint: .offered, command: .toggleAutoRenew, contexts: [.subscriptionList]),
        KeyBinding(keys: [.char("p")], label: "p", command: .agreeToPrice, contexts: [.subscriptionList]),
        KeyBinding(keys: [.left, .right, .tab], label: "←/→/Tab", hint: .offered, command: .otherChoice, contexts: [.prompt]),
        KeyBinding(keys: [.escape], label: "Esc", hint: .offered, command: .back, contexts: ListPanels.contexts.union([.login, .hud, .prompt, .help, .quitConfirm, .compensateConfirm, .inspector, .explain, .redeemSheet])),
        KeyBinding(keys: [.backspace], label: "⌫", command: .erase, contexts: [.login, .redeemSheet]),
        KeyBinding(keys: [.char("b")], label: "b", command: .toggleBackend, contexts: [.products, .hud]),
        KeyBinding(keys: [.char("f")], label: "f", command: .foreground, contexts: [.products, .hud]),
        KeyBinding(keys: [.char("t")], label: "t", command: .skipTime, contexts: [.products, .hud]),
        KeyBinding(keys: [.char("o")], label: "o", hint: .offered, command: .armOnce, contexts: [.panel]),
        KeyBinding(keys: [.char("a")], label: "a", hint: .offered, command: .assignUnclaimed, contexts: [.inspector]),
        KeyBinding(keys: [.char("m")], label: "m", hint: .offered, command: .manageSubscriptions, contexts: [.products, .subscriptionList]),
        KeyBinding(keys: [.char("r")], label: "r", hint: .offered, command: .refund, contexts: [.inspector]),
        KeyBinding(keys: [.char("c")], label: "c", hint: .offered, command: .compensate, contexts: [.inspector]),
        KeyBinding(keys: [.char("F")], label: "F", command: .faultPanel, contexts: [.products, .hud, .panel, .scenarioList, .stateBrowser]),
        KeyBinding(keys: [.char("S")], label: "S", command: .scenarios, contexts: [.products, .panel, .scenarioList, .stateBrowser]),
        KeyBinding(keys: [.char("i")], label: "i", command: .inspector, contexts: [.products, .hud, .prompt, .inspector]),
        KeyBinding(keys: [.char("e")], label: "e", hint: .offered, command: .explain,
                   contexts: ListPanels.contexts.union([.products, .hud, .prompt, .help, .inspector, .explain])),
        KeyBinding(keys: [.char("E")], label: "E", command: .stateCatalog, contexts: anywhere.subtracting([.loginEmpty])),
        // Wherever a letter is not typed text or an answer to a question.
        KeyBinding(keys: [.char("l")], label: "l", command: .language, contexts: anywhere.subtracting([.loginEmpty, .compensateConfirm])),
        KeyBinding(keys: [.char("R")], label: "R", hint: .offered, command: .restore, contexts: [.products]),
        KeyBinding(keys: [.char("o")], label: "o", command: .chooseOffer, contexts: [.products]),
        KeyBinding(keys: [.char("L")], label: "L", hint: .offered, command: .logout, contexts: [.products]),
        KeyBinding(keys: [.char("?")], label: "?", hint: .offered, command: .help, contexts: anywhere),
        KeyBinding(keys: [.char("q")], label: "q", hint: .offered, command: .quit, contexts: anywhere),
        KeyBinding(keys: [.char("y")], label: "y", hint: .offered, command: .confirm, contexts: [.quitConfirm, .compensateConfirm]),
    ]

    public static func command(for key: Key, in context: KeyContext) -> Command? {
        bindings.first { $0.contexts.contains(context) && $0.keys.contains(key) }?.command
    }

    /// The key a command is bound to, for scripts that name commands instead of keys.
    public static func key(for command: Command) -> Key? {
        bindings.first { $0.command == command }?.keys.first
    }

    /// What a narrow hint bar keeps longest: the screen's own action, the way back, the ways out.
    public static let keptLongest: Set<Command> = [.choose, .toggleAutoRenew, .back, .otherChoice, .help, .quit]

    public static func hints(for context: KeyContext) -> [KeyBinding] {
        bindings.filter { $0.hint != nil && $0.contexts.contains(context) }
    }
}

extension AppState {
    /// The keys the hint bar offers now: the context's, less an open panel's key that would do nothing to its selected row,
    /// and its moves when it has no second row to move to.
    public var offeredHints: [KeyBinding] {
        let hints = Keymap.hints(for: keyContext)
        guard let (panel, selection) = ListPanels.shown(in: modal) else { return hints }
        let canMove = panel.count(in: self) > 1
        return hints.filter { (canMove || !Keymap.moves.contains($0.command)) && panel.offers($0.command, on: selection, in: self) }
    }

    public var keyContext: KeyContext {
        switch modal {
        case .help: return .help
        case .quitConfirm: return .quitConfirm
        case .compensateConfirm: return .compensateConfirm
        case .redeemCode: return .redeemSheet
        case .unfinished, .logoutWarning: return .prompt
        case .inspector: return .inspector
        case .explain: return .explain
        case .faultPanel, .scenarios, .stateCatalog, .subscriptions, .panel:
            if let (panel, _) = ListPanels.shown(in: modal) { return panel.context }
        case nil: break
        }
        if user == nil { return loginText.isEmpty ? .loginEmpty : .login }
        return hud == nil ? .products : .hud
    }
}
