import IAPCore

extension DevicesPanel: PanelView {
    /// A row per device: its name (the one the app runs on marked), who is logged in there, and what waits there. The
    /// first three columns are as wide as what they hold (a long name whole where the terminal has room), and give way
    /// in a narrow one, so that what waits is said whole.
    func box(_ view: StateView, selection: Int) -> any Widget {
        let lang = view.lang, theme = view.theme
        let devices = view.state.devices
        let names = devices.map { $0.name + ($0.current ? Self.here[lang] : "") }
        let users = devices.map { $0.user ?? Self.nobody[lang] }
        let appleIds = devices.map { $0.appleId ?? Self.ownAppleIds[lang] }
        func width(_ texts: [String], atMost most: Int) -> Int { min(most, texts.map(displayWidth).max() ?? 0) }
        let widths = (name: width(names, atMost: 40), user: width(users, atMost: 24), appleId: width(appleIds, atMost: 24))
        let rows = devices.indices.map { i -> ScrollingList.Row in
            let device = devices[i]
            let waiting = Self.waiting[lang].replacingOccurrences(of: "{unfinished}", with: device.unfinished.map(String.init) ?? "?")
                .replacingOccurrences(of: "{pending}", with: device.pending.map(String.init) ?? "?")
            let busy = (device.unfinished ?? 1) + (device.pending ?? 1) > 0
            return [
                ScrollingList.Column(names[i], width: widths.name, style: device.current ? theme.heading : theme.plain, givesWay: true),
                ScrollingList.Column(users[i], width: widths.user, style: device.user == nil ? theme.dimmed : theme.plain, givesWay: true),
                ScrollingList.Column(appleIds[i], width: widths.appleId, style: device.appleId == nil ? theme.dimmed : theme.plain, givesWay: true),
                ScrollingList.Column(waiting, style: busy ? theme.waiting : theme.dimmed),
            ]
        }
        return ListBox(title: Self.title[lang], rows: rows, selection: selection, maxWidth: 100, hint: Self.hint[lang],
                       empty: (Self.reading[lang], theme.dimmed), theme: theme)
    }

    func words(_ command: Command) -> KeyWords? {
        command == .devices ? KeyWords(Localized(en: "devices and accounts", zh: "设备与账号"), section: .productList) : nil
    }

    static let title = Localized(en: "Devices and accounts", zh: "设备与账号")
    static let here = Localized(en: " (this one)", zh: "(本机)")
    static let nobody = Localized(en: "nobody logged in", zh: "未登录")
    /// No Apple ID was ever signed in there: each app user pays with an Apple ID of their own name.
    static let ownAppleIds = Localized(en: "per user", zh: "各用户自有")
    /// `{unfinished}` in the device's store queue, `{pending}` kept by its client.
    static let waiting = Localized(en: "{unfinished} unfinished · {pending} pending", zh: "未完成 {unfinished} · 待处理 {pending}")
    static let hint = Localized(en: "unfinished: store queue · pending: the app's · Enter: next Apple ID here",
                                zh: "未完成:商店队列 · 待处理:应用保存 · 本机按 Enter:下一个 Apple ID")
    static let reading = Localized(en: "Reading the devices…", zh: "正在读取设备…")

    var explanation: StateExplanation? {
        StateExplanation(
            id: stateId, title: Self.title,
            sees: Localized(en: "Every device of the data, the one the app runs on marked, with who is logged in to the app there, the Apple ID signed in there, and how many transactions and orders wait there.",
                            zh: "数据中的每台设备(标出应用当前所在的一台),各自登录应用的用户、登录的 Apple ID,以及各有多少交易和订单在等待。"),
            underneath: Localized(en: "Each device has its own store queue of unfinished transactions and its own client keychain of orders not yet confirmed by the backend. The Apple ID signed in on a device pays for every app user there and owns what it pays for, on every device; its unfinished transactions show only while it is signed in. Read from the files when the panel opens; Enter on the device the app runs on signs the next sandbox tester in there.",
                                  zh: "每台设备有自己的商店未完成交易队列和自己的客户端钥匙串(保存后端尚未确认的订单)。设备上登录的 Apple ID 为该设备上所有应用用户付款,并在所有设备上拥有其所购项目;它的未完成交易只在它登录时显示。面板打开时从文件读取;在应用所在设备上按 Enter,即在该设备登录下一个沙盒测试员。"),
            support: Localized(en: "Find where a user's payment waits: an unfinished transaction or a pending order is settled only when the app runs on that device with that user logged in.",
                               zh: "查明用户的付款停在哪台设备:未完成交易或待处理订单,只有在该设备上运行应用并由该用户登录时才会处理。"),
            reach: Localized(en: "D on the product list (a script's `device NAME USER` adds a device)", zh: "在商品列表按 D(脚本步骤 `device NAME USER` 可添加设备)"))
    }

    var gallery: (@Sendable (inout AppState) -> Void)? {
        { [self] state in
            state.devices = [
                DeviceSummary(name: "phone", current: true, user: "alice", appleId: "sandbox-1", unfinished: 0, pending: 0),
                DeviceSummary(name: "tablet", current: false, user: "bob", appleId: "sandbox-2", unfinished: 1, pending: 1),
                DeviceSummary(name: "watch", current: false, user: nil, appleId: nil, unfinished: 0, pending: 0),
            ]
            state.modal = modal(selection: 1)
        }
    }
}
