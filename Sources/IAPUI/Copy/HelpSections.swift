import IAPCore

/// Where the `?` overlay lists a key: by where it works, in the order the overlay shows them. The order splits them into
/// two columns of about the same length at 80×24, the product list and the panels opened from it on the left.
enum HelpSection: CaseIterable {
    case productList, panels, lists, promptsAndLogin, everywhere

    var title: Localized {
        switch self {
        case .productList: Localized(en: "Product list", zh: "商品列表")
        case .promptsAndLogin: Localized(en: "Prompts and login", zh: "提示框与登录")
        case .lists: Localized(en: "Moving in lists", zh: "在列表中移动")
        case .panels: Localized(en: "Panels and inspector", zh: "面板与检查器")
        case .everywhere: Localized(en: "Everywhere", zh: "通用")
        }
    }

    /// The app's own keys here; a panel's key where its view says.
    init(_ command: Command) {
        switch command {
        case .choose, .toggleBackend, .foreground, .skipTime, .restore, .inspector, .language, .logout, .chooseOffer:
            self = .productList
        case .otherChoice, .confirm, .erase:
            self = .promptsAndLogin
        case .up, .down, .pageUp, .pageDown, .first, .last:
            self = .lists
        case .assignUnclaimed, .refund, .compensate:
            self = .panels
        case .back, .explain, .help, .quit:
            self = .everywhere
        default:
            self = KeyWords.of(command).section ?? .panels
        }
    }
}
