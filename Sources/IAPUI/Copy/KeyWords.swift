import IAPCore

/// The words of a key: the long form for `?`, the short one for the hint bar where the keymap offers it there, and,
/// for a panel's own key, where `?` lists it.
struct KeyWords {
    let help: Localized
    let hint: Localized?
    let section: HelpSection?

    init(_ help: Localized, hint: Localized? = nil, section: HelpSection? = nil) {
        self.help = help
        self.hint = hint
        self.section = section
    }

    /// The app's own keys here; a panel's in its own view.
    static func of(_ command: Command) -> KeyWords {
        return switch command {
        case .up: KeyWords(Localized(en: "move up", zh: "上移"), hint: Localized(en: "up", zh: "上移"))
        case .down: KeyWords(Localized(en: "move down", zh: "下移"), hint: Localized(en: "down", zh: "下移"))
        // The two read alike, so that help gives them one line.
        case .pageUp, .pageDown: KeyWords(Localized(en: "page up/down (lists, e, i)", zh: "上 / 下翻页(列表、解释、i)"))
        case .first: KeyWords(Localized(en: "to the first", zh: "到第一项"))
        case .last: KeyWords(Localized(en: "to the last", zh: "到最后一项"))
        case .choose: KeyWords(Localized(en: "buy / log in / take default", zh: "购买 / 登录 / 默认选项"), hint: Localized(en: "choose", zh: "确定"))
        case .otherChoice: KeyWords(Localized(en: "switch button", zh: "切换按钮"), hint: Localized(en: "switch", zh: "切换"))
        case .back: KeyWords(Localized(en: "back / dismiss / safe choice", zh: "返回 / 关闭 / 安全选项"), hint: Localized(en: "back", zh: "返回"))
        case .erase: KeyWords(Localized(en: "erase a letter", zh: "删除一个字"))
        case .toggleBackend: KeyWords(Localized(en: "backend up / down", zh: "切换后端可达"))
        case .foreground: KeyWords(Localized(en: "foreground: retry now", zh: "回到前台:立即重试"))
        case .skipTime: KeyWords(Localized(en: "skip to the next retry/reply", zh: "跳到下一次重试或回应"))
        case .assignUnclaimed: KeyWords(Localized(en: "assign unclaimed (support)", zh: "分配未认领付款(客服)"), hint: Localized(en: "assign unclaimed", zh: "分配未认领"))
        case .refund: KeyWords(Localized(en: "refund latest (Apple side)", zh: "退款最近一笔(Apple 侧)"), hint: Localized(en: "refund", zh: "退款"))
        case .compensate: KeyWords(Localized(en: "compensate an order", zh: "人工补单"), hint: Localized(en: "compensate", zh: "补单"))
        case .inspector: KeyWords(Localized(en: "inspector: parties, timeline", zh: "检查器:三方与时间线"))
        case .explain: KeyWords(Localized(en: "explain what is on screen", zh: "解释当前画面"), hint: Localized(en: "explain", zh: "解释"))
        case .language: KeyWords(Localized(en: "language: English / 简体中文", zh: "语言:English / 简体中文"))
        case .chooseOffer: KeyWords(Localized(en: "offers, plans, redeem a code", zh: "优惠、方案,兑换优惠码"))
        case .restore: KeyWords(Localized(en: "restore purchases", zh: "恢复购买"), hint: Localized(en: "restore", zh: "恢复购买"))
        case .logout: KeyWords(Localized(en: "log out", zh: "退出登录"), hint: Localized(en: "log out", zh: "退出登录"))
        case .help: KeyWords(Localized(en: "help: every key", zh: "帮助:所有按键"), hint: Localized(en: "help", zh: "帮助"))
        case .quit: KeyWords(Localized(en: "quit (asks if buying)", zh: "退出(购买中会先确认)"), hint: Localized(en: "quit", zh: "退出"))
        case .confirm: KeyWords(Localized(en: "yes (quit, compensate)", zh: "确认(退出、补单)"), hint: Localized(en: "yes", zh: "确认"))
        default: panelWords(command) ?? KeyWords(Localized(command.rawValue))
        }
    }

    /// A panel's key, in its panel's words. The panel that opens the key or binds it is asked first, so that a hint bar
    /// casts no other panel to its view: a type's first cast reads every conformance record in the binary.
    private static func panelWords(_ command: Command) -> KeyWords? {
        let owners = ListPanels.all.filter { $0.opens == command || $0.bindings.contains { $0.command == command } }
        return (owners + ListPanels.all).lazy.compactMap { ($0 as? any PanelView)?.words(command) }.first
    }
}

extension KeyBinding {
    /// What `?` says the key does.
    public var help: Localized { KeyWords.of(command).help }

    /// What the hint bar says, where it offers the key.
    var hintWords: Localized { KeyWords.of(command).hint ?? Localized("") }

    /// The same over `modal`: in a prompt Esc is its cautious answer, not a way back, and says which.
    func hintWords(over modal: Modal?) -> Localized {
        switch (command, modal) {
        case (.back, .unfinished?): Localized(en: "later", zh: "稍后")
        case (.back, .logoutWarning?): Localized(en: "stay", zh: "留下")
        default: hintWords
        }
    }
}
