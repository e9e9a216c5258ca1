/// Devices and accounts (`D`): every device of the simulated world (the first, and each one a script's `device NAME`
/// started), who the app there is logged in as, and what waits there. Read from the parties' files each time it opens.
public struct DevicesPanel: NamedListPanel {
    public init() {}

    public var id: PanelID { PanelID("devices") }
    public var context: KeyContext { .deviceList }
    public var opens: Command { .devices }
    public var stateId: String { "devices" }

    public var bindings: [KeyBinding] {
        [KeyBinding(keys: [.char("D")], label: "D", command: .devices, contexts: [.products, .deviceList])]
    }

    /// Enter on the device the app runs on is its Settings › App Store: the next sandbox tester signs in, and the list
    /// is read again to show it. Another device's Settings are on that device.
    public func act(_ command: Command, on selection: Int, in state: inout AppState) -> [Effect]? {
        guard command == .choose else { return nil }
        guard state.devices.indices.contains(selection), state.devices[selection].current else { return [] }
        return state.perform(.signInAppleId(AppleID.after(state.device.appleId))) + [.listDevices]
    }

    public func count(in state: AppState) -> Int { state.devices.count }

    /// Asks for the devices as it opens, read anew (a device may have changed since); its key again closes it.
    public func open(_ state: inout AppState) -> [Effect] {
        if let modal = state.modal, selection(in: modal) != nil { return state.closeOverlay() }
        state.modal = modal(selection: 0)
        state.devices = []
        return [.listDevices]
    }

    /// The list read: on opening, the cursor goes to the device the app runs on, where Enter acts; read again after
    /// Enter, it stays where it is.
    func listed(_ list: [DeviceSummary], in state: inout AppState) {
        let opening = state.devices.isEmpty
        state.devices = list
        if opening, let modal = state.modal, selection(in: modal) != nil {
            state.modal = self.modal(selection: list.firstIndex(where: \.current) ?? 0)
        }
    }
}

extension KeyContext {
    /// Devices and accounts: a list to move in.
    public static let deviceList = KeyContext("deviceList")
}

extension Command {
    public static let devices = Command("devices")
}
