import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Hummingbird
import IAPCore

/// The client's backend when it is a team's own server (`--backend URL`): the contract in `docs/backend-contract.yaml`
/// over HTTP. Answers come back on the parties' thread, as the built-in backend's do, and every exchange is told for
/// the inspector's timeline.
public final class RemoteBackend: Backend {
    /// The URL as given, its credentials written `***`.
    public let creditsKeptAt: String?
    /// Where the contract's paths hang off, without credentials (they go in `authorization`).
    private let base: String
    /// `user:password@` of the URL given, as HTTP Basic authorization.
    private let authorization: String?
    private let thread: PartyThread
    /// Whole seconds the client waits for an answer.
    private let timeout: Int
    /// Each exchange in a line since the last `takeExchanges`, for the inspector's timeline.
    private var exchanges: [Localized] = []

    public func takeExchanges() -> [Localized] {
        defer { exchanges.removeAll() }
        return exchanges
    }

    /// `url` is where the contract's paths hang off, e.g. `http://127.0.0.1:9000` for `http://127.0.0.1:9000/backend/v1/…`.
    /// `timeout`: as long as the client waits for the built-in backend.
    public init(url: String, thread: PartyThread, timeout: Int = 10) {
        var parts = URLComponents(string: url)
        if let user = parts?.user {
            authorization = "Basic " + Data("\(user):\(parts?.password ?? "")".utf8).base64EncodedString()
            parts?.user = nil
            parts?.password = nil
        } else {
            authorization = nil
        }
        creditsKeptAt = ShownURL.redacting(in: url.hasSuffix("/") ? String(url.dropLast()) : url)
        let plain = parts?.string ?? url
        base = plain.hasSuffix("/") ? String(plain.dropLast()) : plain
        self.thread = thread
        self.timeout = timeout
    }

    public func createOrder(user: String, productId: String, storeKit: StoreKitMode, _ completion: @escaping (Result<OrderResponse, BackendError>) -> Void) {
        send(.post, "orders", body: OrderRequest(user: user, productId: productId, storekit: storeKit == .two ? 2 : nil), as: OrderResponse.self,
             completion)
    }

    public func appAccountToken(user: String, _ completion: @escaping (Result<UUID, BackendError>) -> Void) {
        let escaped = user.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? user
        send(.get, "accounts/\(escaped)/appAccountToken", body: Optional<OrderRequest>.none, as: AppAccountTokenResponse.self) { result in
            completion(result.flatMap { UUID(uuidString: $0.appAccountToken).map(Result.success) ?? .failure(.notTheContract(status: 200)) })
        }
    }

    public func verify(_ request: VerifyRequest, _ completion: @escaping (Result<VerifyResponse, BackendError>) -> Void) {
        send(.post, "verify", body: request, as: VerifyResponse.self, completion)
    }

    public func account(user: String, _ completion: @escaping (Result<Account, BackendError>) -> Void) {
        let escaped = user.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? user
        send(.get, "accounts/\(escaped)", body: Optional<OrderRequest>.none, as: Account.self, completion)
    }

    public func signOffer(user: String, productId: String, offerId: String, applicationUsername: String?, storeKit: StoreKitMode,
                          _ completion: @escaping (Result<OfferSignature, BackendError>) -> Void) {
        let asked = OfferRequest(user: user, productId: productId, offerId: offerId, applicationUsername: applicationUsername,
                                 storekit: storeKit == .two ? 2 : nil)
        switch storeKit {
        case .one: send(.post, "offers", body: asked, as: PaymentDiscount.self) { completion($0.map(OfferSignature.discount)) }
        case .two: send(.post, "offers", body: asked, as: SignedPromotionalOffer.self) { completion($0.map(OfferSignature.signed)) }
        }
    }

    public func report(_ alarms: [AlarmReport], _ completion: @escaping (Result<Void, BackendError>) -> Void) {
        send(.post, "alarms", body: AlarmsRequest(alarms: alarms), as: AlarmsResponse.self) { completion($0.map { _ in () }) }
    }

    private func send<Body: Encodable & Sendable, Answer: Decodable & Sendable>(
        _ method: HTTPRequest.Method, _ path: String, body: Body?, as: Answer.Type, _ completion: @escaping (Result<Answer, BackendError>) -> Void
    ) {
        let url = "\(base)/backend/v1/\(path)"
        let shown = "\(method.rawValue) /backend/v1/\(path)"
        let reply = Confined(value: { [self] (result: Result<Answer, BackendError>, line: Localized) in
            exchanges.append(line)
            completion(result)
        })
        let call = Call(method: method, url: url, authorization: authorization, body: body.flatMap { try? JSONEncoder().encode($0) },
                        timeout: timeout, shown: shown, thread: thread, reply: reply)
        Task.detached { await call.run() }
    }

    /// One request on its way, with where its answer goes.
    private struct Call<Answer: Decodable & Sendable>: Sendable {
        let method: HTTPRequest.Method
        let url: String
        let authorization: String?
        let body: Data?
        let timeout: Int
        let shown: String
        let thread: PartyThread
        let reply: Confined<(Result<Answer, BackendError>, Localized) -> Void>

        func run() async {
            let started = ContinuousClock.now
            let exchanged = await RemoteBackend.exchange(method, url, authorization: authorization, body: body, timeout: timeout, as: Answer.self)
            let line = RemoteBackend.line(shown, exchanged.result.map { _ in () }, status: exchanged.status, since: started)
            thread.post { reply.value(exchanged.result, line) }
        }
    }

    private static func line(_ shown: String, _ result: Result<Void, BackendError>, status: Int?, since started: ContinuousClock.Instant) -> Localized {
        let milliseconds = Elapsed.milliseconds(since: started)
        var answer = Localized(status.map(String.init) ?? "")
        switch result {
        case .failure(.notTheContract): answer = Localized(en: answer.en + ", not the contract's JSON", zh: answer.zh + ",不是约定的 JSON")
        case .failure(.tooLarge): answer = Localized(en: answer.en + ", body over 1 MB", zh: answer.zh + ",响应体超过 1 MB")
        case let .failure(error) where status == nil: answer = Localized("\(error)")
        default: break
        }
        return Localized(en: "backend: \(shown) → \(answer.en) (\(milliseconds) ms)", zh: "后端:\(shown) → \(answer.zh)(\(milliseconds) 毫秒)")
    }

    /// One request and its answer, as the client understands it: no connection is unreachable, no answer in time a
    /// timeout, any status but 2xx an HTTP error, a 2xx whose body is not the contract's or is over 1 MB said so.
    private static func exchange<Answer: Decodable & Sendable>(
        _ method: HTTPRequest.Method, _ url: String, authorization: String?, body: Data?, timeout: Int, as: Answer.Type
    ) async -> (result: Result<Answer, BackendError>, status: Int?) {
        guard let address = URL(string: url) else { return (.failure(.unreachable), nil) }
        var request = URLRequest(url: address)
        request.httpMethod = method.rawValue
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let authorization { request.setValue(authorization, forHTTPHeaderField: "Authorization") }
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = body
        }
        switch await HTTPExchange.send(request, timeout: timeout, mostBytes: mostBytes) {
        case let .success(answer):
            guard (200..<300).contains(answer.status) else { return (.failure(.http(answer.status)), answer.status) }
            guard let decoded = try? JSONDecoder().decode(Answer.self, from: answer.body) else {
                return (.failure(.notTheContract(status: answer.status)), answer.status)
            }
            return (.success(decoded), answer.status)
        case let .failure(.tooLarge(status)): return (.failure(.tooLarge(status: status)), status)
        case .failure(.timedOut): return (.failure(.timeout), nil)
        case .failure(.refused), .failure(.tls), .failure(.other): return (.failure(.unreachable), nil)
        }
    }

    /// The most of an answer the client reads: 1 MB, far above any answer of the contract.
    static let mostBytes = 1 << 20
}
