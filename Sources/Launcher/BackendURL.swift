import Foundation
import IAPCore

/// `--backend URL`: the team's server the client calls, checked at the edge.
public enum BackendURL {
    /// What `--backend` accepts: http or https, a host, nothing after the path.
    public static func check(_ url: String) throws -> String {
        guard let parts = URLComponents(string: url), let scheme = parts.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = parts.host, !host.isEmpty, parts.query == nil, parts.fragment == nil
        else { throw BackendURLError(url: url) }
        if let port = parts.port, !(1...65535).contains(port) { throw BackendURLError(url: url, port: port) }
        return url
    }
}

public struct BackendURLError: Error, CustomStringConvertible {
    public let url: String
    /// A port out of range, when that is what is wrong.
    public var port: Int?

    public var description: String {
        if let port { return "\"\(ShownURL.redacting(in: url))\": port \(port) is not 1 to 65535; give the port the server listens on" }
        return "\"\(ShownURL.redacting(in: url))\" is not a server's address; give e.g. http://127.0.0.1:9000 (http or https, a host, no query)"
    }
}
