import Foundation
import IAPCore

/// `--notify URL`: the team's server that App Store Server Notifications are POSTed to, checked at the edge so that a
/// typo is said at once rather than as a retry count hours later. Said as `iapsim: --notify: …` by the caller, as
/// `--user` is.
public enum NotifyURL {
    public static func parse(_ text: String) throws -> URL {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = components.host, !host.isEmpty, let url = components.url
        else {
            throw CommandLineError(description: "\"\(ShownURL.redacting(in: text))\" is not an http:// or https:// URL with a host; give e.g. http://127.0.0.1:9000/notifications")
        }
        if let port = components.port, !(1...65535).contains(port) {
            throw CommandLineError(description: "\"\(ShownURL.redacting(in: text))\": port \(port) is not 1 to 65535; give the port the server listens on")
        }
        return url
    }
}

extension NotifyURL {
    /// `--notify`'s URL, or a one-line failure (exit 64) before anything is touched.
    public static func checked(_ text: String?) -> URL? {
        guard let text else { return nil }
        do { return try parse(text) } catch { Console.fail("--notify: \(error)", code: Console.usageFailure) }
    }
}
