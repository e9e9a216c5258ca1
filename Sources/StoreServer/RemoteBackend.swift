import AsyncHTTPClient
import Foundation
import IAPCore
import NIOCore
import NIOHTTP1

/// The client's backend when it is a team's own server (`--backend URL`): the contract in `docs/backend-contract.yaml`
/// over HTTP. Answers come back on the parties' thread, as the built-in backend's do, and every exchange is told for
/// the inspector's timeline.
public final class RemoteBackend: Backend {
    public var creditsKeptAt: String? { base }
    private let base: String
    private let thread: PartyThread
    /// Each exchange in a line since the last `takeExchanges`, for the inspector's timeline.
    private var exchanges: [Localized] = []

    public func takeExchanges() -> [Localized] {
        defer { exchanges.removeAll() }
        return exchanges
    }

    /// `url` is where the contract's paths hang off, e.g. `http://127.0.0.1:9000` for `http://127.0.0.1:9000/backend/v1/…`.
    public init(url: String, thread: PartyThread) {
        base = url.hasSuffix("/") ? String(url.dropLast()) : url
        self.thread = thread
    }

    /// What `--backend` accepts: http or https, a host, nothing after the path.
    public static func check(_ url: String) throws -> String {
        guard let parts = URLComponents(string: url), let scheme = parts.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = parts.host, !host.isEmpty, parts.query == nil, parts.fragment == nil
        else { throw BackendURLError(url: url) }
        return url
    }

    public func createOrder(user: String, productId: String, _ completion: @escaping (Result<String, BackendError>) -> Void) {
        send(.POST, "orders", body: OrderRequest(user: user, productId: productId), as: OrderResponse.self) { completion($0.map(\.orderId)) }
    }

    public func verify(_ request: VerifyRequest, _ completion: @escaping (Result<VerifyResponse, BackendError>) -> Void) {
        send(.POST, "verify", body: request, as: VerifyResponse.self, completion)
    }

    public func account(user: String, _ completion: @escaping (Result<Account, BackendError>) -> Void) {
        let escaped = user.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? user
        send(.GET, "accounts/\(escaped)", body: Optional<OrderRequest>.none, as: Account.self, completion)
    }

    private func send<Body: Encodable & Sendable, Answer: Decodable & Sendable>(
        _ method: HTTPMethod, _ path: String, body: Body?, as: Answer.Type, _ completion: @escaping (Result<Answer, BackendError>) -> Void
    ) {
        let url = "\(base)/backend/v1/\(path)"
        let shown = "\(method.rawValue) /backend/v1/\(path)"
        let reply = Confined(value: { [self] (result: Result<Answer, BackendError>, line: Localized) in
            exchanges.append(line)
            completion(result)
        })
        let call = Call(method: method, url: url, body: body.flatMap { try? JSONEncoder().encode($0) }, shown: shown, thread: thread,
                        reply: reply)
        Task.detached { await call.run() }
    }

    /// One request on its way, with where its answer goes.
    private struct Call<Answer: Decodable & Sendable>: Sendable {
        let method: HTTPMethod
        let url: String
        let body: Data?
        let shown: String
        let thread: PartyThread
        let reply: Confined<(Result<Answer, BackendError>, Localized) -> Void>

        func run() async {
            let started = ContinuousClock.now
            let exchanged = await RemoteBackend.exchange(method, url, body: body, as: Answer.self)
            let line = RemoteBackend.line(shown, exchanged.result.map { _ in () }, status: exchanged.status, since: started)
            thread.post { reply.value(exchanged.result, line) }
        }
    }

    private static func line(_ shown: String, _ result: Result<Void, BackendError>, status: Int?, since started: ContinuousClock.Instant) -> Localized {
        let milliseconds = Elapsed.milliseconds(since: started)
        var answer = status.map(String.init) ?? ""
        if case let .failure(error) = result, status == nil { answer = "\(error)" }
        return Localized(en: "backend: \(shown) → \(answer) (\(milliseconds) ms)", zh: "后端:\(shown) → \(answer)(\(milliseconds) 毫秒)")
    }

    /// One request and its answer, as the client understands it: no connection is unreachable, no answer in time a
    /// timeout, any status but 2xx (or a body that is not the contract's) an HTTP error.
    private static func exchange<Answer: Decodable & Sendable>(
        _ method: HTTPMethod, _ url: String, body: Data?, as: Answer.Type
    ) async -> (result: Result<Answer, BackendError>, status: Int?) {
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(name: "Accept", value: "application/json")
        if let data = body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: data))
        }
        do {
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(Int64(timeout)))
            let bytes = try await response.body.collect(upTo: 1 << 20)
            let status = Int(response.status.code)
            guard (200..<300).contains(status) else { return (.failure(.http(status)), status) }
            guard let answer = try? JSONDecoder().decode(Answer.self, from: Data(buffer: bytes)) else { return (.failure(.http(502)), status) }
            return (.success(answer), status)
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout {
            return (.failure(.timeout), nil)
        } catch {
            return (.failure(.unreachable), nil)
        }
    }

    /// As long as the client waits for the built-in backend.
    static let timeout = 10.0
}

public struct BackendURLError: Error, CustomStringConvertible {
    public let url: String
    public var description: String { "\"\(url)\" is not a server's address; give e.g. http://127.0.0.1:9000 (http or https, a host, no query)" }
}
