import IAPCore

/// What a launch needs, as plain values: `RunOptions` (ArgumentParser, in LaunchOptions) and a plain launch
/// (`init(plain:)`) both come to this, so that `iapsim` neither links nor builds ArgumentParser.
public struct LaunchSettings {
    public var dataDir: String?
    public var user: String?
    public var lang: Language = .en
    public var catalog: String?
    public var faults: [FaultSpec] = []
    public var scenario: String?
    public var parallel = false
    /// nil: the catalog's `_timeRate`, else real time.
    public var speed: Double?
    /// Serve Apple's endpoints on 127.0.0.1 at this port while the app runs.
    public var serve: Int?
    /// A team's own server the client calls instead of the built-in backend.
    public var backend: String?
    /// Where App Store Server Notifications are POSTed, as given (`NotifyURL` checks it); nil: nowhere (the built-in
    /// backend still hears them).
    public var notify: String?
    /// The Apple ID to sign in on the device before the app starts (A1); nil: the one signed in there, if any.
    public var appleId: String?
    /// The device of the data directory the app runs on (`phone`, or one under `devices/`).
    public var device: String?
    /// The backend's restore policy to set before the app starts, as given (`transfer`, `keep`, `share`); nil: as set.
    public var restorePolicy: String?
    /// Apple IDs to make one family before the app starts (A4), as given: comma-separated.
    public var family: String?
    /// The StoreKit the client is written against, as given (`1`, `2`); nil: StoreKit 1.
    public var storeKit: String?
    /// The built-in backend runs as a modern server: the App Store Server API and notifications, no receipt.
    public var serverAPI = false

    /// What `--speed` takes.
    public static let speeds = 0.1...1000.0

    public init() {}
}
