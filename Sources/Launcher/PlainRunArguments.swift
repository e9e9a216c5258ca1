import IAPCore

extension LaunchSettings {
    /// `run`'s options read without ArgumentParser, for a plain launch only: every argument one of run's options,
    /// spelled `--name value` or `--name=value` (a leading `run` allowed), each value taken as ArgumentParser takes
    /// it. ArgumentParser reflects over every command's options before it parses; in this binary that costs more than
    /// the rest of the launch before the first frame. Anything else (help, another command, a repeated or unknown
    /// option, a value that starts with `-` or does not read) is nil, and ArgumentParser says what it says.
    public init?(plain arguments: [String]) {
        self.init()
        var arguments = arguments[...]
        if arguments.first == "run" { arguments = arguments.dropFirst() }
        var given: [String: String] = [:]
        var faults: [FaultSpec] = []
        var flags: Set<String> = []
        while let argument = arguments.popFirst() {
            guard argument.hasPrefix("--") else { return nil }
            var name = String(argument.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if Self.plainFlags.contains(name) {
                guard value == nil, flags.insert(name).inserted else { return nil }
                continue
            }
            guard Self.plainValueOptions.contains(name) else { return nil }
            if value == nil { value = arguments.popFirst() }
            guard let value, !value.isEmpty, !value.hasPrefix("-") else { return nil }
            if name == "fault" {
                guard let fault = try? FaultSpec(value) else { return nil }
                faults.append(fault)
            } else {
                guard given.updateValue(value, forKey: name) == nil else { return nil }
            }
        }
        dataDir = given["data-dir"]
        catalog = given["catalog"]
        user = given["user"]
        scenario = given["scenario"]
        self.faults = faults
        parallel = flags.contains("parallel")
        serverAPI = flags.contains("server-api")
        var speed: Double?
        if let text = given["speed"] {
            // A speed that does not parse goes to ArgumentParser, which says what is wrong with it.
            guard let value = try? number(text, option: "--speed", in: LaunchSettings.speeds) else { return nil }
            speed = value
        }
        if let url = given["backend"] {
            guard let checked = try? BackendURL.check(url) else { return nil }
            backend = checked
        }
        if let text = given["serve"] {
            guard let port = try? PortNumber.parse(text) else { return nil }
            serve = port
        }
        notify = given["notify"]
        appleId = given["apple-id"]
        device = given["device"]
        restorePolicy = given["restore-policy"]
        family = given["family"]
        storeKit = given["storekit"]
        guard let lang = given["lang"].map(Language.init(rawValue:)) ?? .en else { return nil }
        self.lang = lang
        self.speed = speed
    }

    /// The options that take no value, each given once at most.
    private static let plainFlags: Set<String> = ["parallel", "server-api"]
    private static let plainValueOptions: Set<String> = ["data-dir", "user", "lang", "catalog", "fault", "scenario", "speed", "serve", "backend", "notify",
                                                             "apple-id", "device", "restore-policy", "family", "storekit"]
}
