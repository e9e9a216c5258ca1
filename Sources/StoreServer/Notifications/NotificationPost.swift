import AsyncHTTPClient
import Foundation
import NIOCore

/// How a signed notification reaches the team's server: a POST, answered or not. Tests may put their own in its place.
public protocol NotificationTransport: Sendable {
    /// nil when the server took it (a 2xx answer); else why not, in a few words.
    func post(_ body: Data, to url: URL) async -> String?
}

/// Apple's side of a notification's delivery: `POST` with `Content-Type: application/json`, given up after 30 seconds.
/// AsyncHTTPClient's shared client: its event loop runs beside the parties, never on their thread.
public struct HTTPNotificationTransport: NotificationTransport {
    public static let timeout: TimeAmount = .seconds(30)

    public init() {}

    public func post(_ body: Data, to url: URL) async -> String? {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: body))
        do {
            let response = try await HTTPClient.shared.execute(request, timeout: Self.timeout)
            // What the server says back is not Apple's business; it is read so the connection can be used again.
            _ = try? await response.body.collect(upTo: 1 << 20)
            return (200..<300).contains(Int(response.status.code)) ? nil : "HTTP \(response.status.code)"
        } catch {
            return Self.reason(error)
        }
    }

    /// "connection refused", "timed out": what a person reading the inspector can act on.
    static func reason(_ error: Error) -> String {
        let text = "\(error)"
        if text.contains("connectTimeout") || text.contains("deadlineExceeded") || text.contains("readTimeout") { return "timed out" }
        if text.localizedCaseInsensitiveContains("refused") { return "connection refused" }
        return text.count > 60 ? String(text.prefix(60)) + "…" : text
    }
}
