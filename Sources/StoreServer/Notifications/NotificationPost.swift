import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How a signed notification reaches the team's server: a POST, answered or not. Tests may put their own in its place.
public protocol NotificationTransport: Sendable {
    /// nil when the server took it (a 2xx answer); else why not, in a few words.
    func post(_ body: Data, to url: URL) async -> String?
}

/// Apple's side of a notification's delivery: `POST` with `Content-Type: application/json`, given up after 30 seconds.
/// The request runs beside the parties, never on their thread.
public struct HTTPNotificationTransport: NotificationTransport {
    /// Whole seconds Apple waits for the team's server.
    let timeout: Int

    public init() { self.init(timeout: 30) }

    /// `timeout`: seconds to wait for the team's server, 30 as Apple waits.
    public init(timeout: Int) { self.timeout = timeout }

    public func post(_ body: Data, to url: URL) async -> String? {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = body
        // What the server says back is not Apple's business: only its status is read.
        switch await HTTPExchange.send(request, timeout: timeout, mostBytes: 1 << 20) {
        case let .success(answer): return Self.said(status: answer.status)
        case let .failure(.tooLarge(status)): return Self.said(status: status)
        case .failure(.timedOut): return Self.timedOut
        case .failure(.refused): return Self.refused
        case .failure(.tls): return Self.tlsFailed
        case let .failure(.other(text)): return text.count > 60 ? String(text.prefix(60)) + "…" : text
        }
    }

    /// Why an attempt failed, as the outbox keeps it and Notification History reads it back (`SendAttemptItem`).
    static let timedOut = "timed out", refused = "connection refused", tlsFailed = "TLS handshake failed"

    private static func said(status: Int) -> String? {
        (200..<300).contains(status) ? nil : "HTTP \(status)"
    }
}
