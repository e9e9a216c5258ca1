import Foundation
import IAPApp
import IAPCore

/// The HTTP wire beside the running app (`--serve`, `--backend`, `--notify`). The full executable, `iapsim-wire`,
/// provides it; `iapsim` carries none of its dependencies (SwiftNIO, Hummingbird, an HTTP client, JWS and X.509), so
/// that it starts at the terminal's floor, and hands any launch that asks for the wire to `iapsim-wire`.
public protocol WirePart: AnyObject {
    /// The team's backend the client calls (`--backend`), made before the session.
    func remoteBackend(url: String) -> any Backend
    /// Serves Apple's endpoints on `port` from `session`'s parties; nil once the port is bound, else why it is not.
    func serve(port: Int, session: AppSession, catalog: [Product]) -> String?
    /// Sends what the store tells the app's server to `url` (`--notify`).
    func notify(url: URL)
    /// The parties the app runs now (after a relaunch, a crash on purpose, a scenario).
    func attach(_ session: AppSession)
    /// One turn of the main loop: runs what the network handed over and puts each exchange on the timeline.
    func turn(_ session: AppSession)
    /// The longest the main loop may wait for a key while the wire needs it to look up.
    var poll: Double { get }
    func stop()
}

/// Where `iapsim-wire` puts its wire before it launches; nil in `iapsim`.
public enum WireParts {
    nonisolated(unsafe) public static var make: (() -> any WirePart)?
}
