import IAPCore

/// What only the program around the app can do: end it, start it again on other data, list what is shipped beside
/// it. The terminal loop and the script player both implement it, so a key does the same in a script as on screen.
/// The app asks in the middle of its own work, so a host acts on a request once that work is done (`HostRequests`).
public protocol Host: AnyObject {
    func request(_ request: HostRequest)
    /// The shipped scenarios, for the list.
    func scenarios() -> [ScenarioInfo]
}

public enum HostRequest: Sendable, Equatable {
    /// The person quit.
    case quit
    /// The app died on purpose (crash-at, crash now), as with `kill -9`.
    case crashed(Localized)
    /// Delete the app and install it again: the sandbox goes, the keychain and the store's queue stay (C11).
    case reinstall
    /// Set up a shipped scenario on its own data and hand it over.
    case startScenario(String)
}

/// Requests kept until the host is between two of the app's steps; the first that ends the app wins.
public final class HostRequests: Host {
    private var waiting: [HostRequest] = []
    private let list: () -> [ScenarioInfo]

    public init(scenarios: @escaping () -> [ScenarioInfo] = { [] }) {
        list = scenarios
    }

    public func request(_ request: HostRequest) {
        waiting.append(request)
    }

    public func scenarios() -> [ScenarioInfo] { list() }

    /// The requests made since the last call, oldest first.
    public func take() -> [HostRequest] {
        defer { waiting = [] }
        return waiting
    }
}
