import ArgumentParser
import IAPCore
import Launcher

/// What `iapsim run` takes: who, where, in which language, on which catalog, with which faults armed.
public struct RunOptions: ParsableArguments {
    @OptionGroup public var data: DataOptions

    @Option(help: "Log in as this user at once.")
    public var user: String?

    @Option(name: .customLong("apple-id"), help: ArgumentHelp("""
        Sign this Apple ID (a sandbox tester) in on the device first: it pays for every app user who logs in there \
        (a new data directory's devices start with sandbox-1).
        """, valueName: "name"))
    public var appleId: String?

    @Option(help: ArgumentHelp("Run on this device of the data directory, made when new (`phone`, the first, when left out).", valueName: "name"))
    public var device: String?

    @Option(name: .customLong("restore-policy"),
            help: ArgumentHelp("The backend's rule when an app user restores or buys again what another app user of the same Apple ID holds: transfer (the default), keep or share; kept in the data.",
                               valueName: "policy"),
            completion: .list(["transfer", "keep", "share"]))
    public var restorePolicy: String?

    @Option(help: ArgumentHelp("Make these Apple IDs one family first (Family Sharing): each owns what the others bought of the family-shareable products.",
                               valueName: "name,name"))
    public var family: String?
    @Option(name: .customLong("storekit"),
            help: ArgumentHelp("The StoreKit the client is written against: 1 (SKPaymentQueue and the receipt, the default) or 2 (an appAccountToken, Transaction.updates, signed transactions); kept nowhere.",
                               valueName: "1|2"),
            completion: .list(["1", "2"]))
    public var storeKit: String?

    @Flag(name: .customLong("server-api"), help: ArgumentHelp("""
        Run the built-in backend as a modern server: it reads no receipt but asks the App Store Server API, hears App \
        Store Server Notifications as Apple delivers them (the notification faults befall them), credits a payment \
        whose transaction names its payer (appAccountToken) as soon as it is told of it, and reads Notification History \
        when it starts; kept nowhere.
        """))
    public var serverAPI = false

    @Option(help: "Language: en or zh.")
    public var lang: Language = .en

    @OptionGroup public var catalog: CatalogOption

    @Option(name: .customLong("fault"), help: ArgumentHelp("Arm a fault at launch (repeatable); `iapsim faults` lists them.", valueName: "name[=value][:once]"),
            completion: .list(Fault.allCases.map(\.rawValue)), transform: FaultSpec.init)
    public var faults: [FaultSpec] = []

    @Option(help: "Set up a shipped scenario (`iapsim scenarios`) on its own data under the data directory, then hand it over.",
            completion: .list(Scenarios.names))
    public var scenario: String?

    @Flag(help: "Allow a new purchase while another order is unfinished (the default is serial, C9).")
    public var parallel = false

    @Option(parsing: .unconditional, help: "Run the app's clock this many times faster (back-off waits, store and backend delays), 0.1 to 1000.",
            transform: { try number($0, option: "--speed", in: LaunchSettings.speeds) })
    public var speed: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Serve Apple's verifyReceipt and App Store Server API on 127.0.0.1 while the app runs (port: \(PortNumber.standard) when left out, 0 any free one).",
                               valueName: "port"),
            transform: { try PortNumber.parse($0) })
    public var serve: Int?

    @Option(help: ArgumentHelp("Call this server instead of the built-in backend: the contract in docs/backend-contract.yaml, e.g. http://127.0.0.1:9000.",
                               valueName: "url"),
            transform: { try BackendURL.check($0) })
    public var backend: String?

    @Option(help: ArgumentHelp("POST every App Store Server Notification (V2, signed) to this server, retried as Apple does.",
                               valueName: "url"))
    public var notify: String?

    public init() {}
}

extension Language: ExpressibleByArgument {}
