/// The outcomes of one verification (C4), as the client acts on them.
public enum VerifyOutcome: Sendable, Equatable {
    case valid
    case invalid(status: Int)
    case retry(reason: String)
    /// The backend keeps the request and asks Apple again itself (Apple's latest status): the client polls, at its
    /// back-off, without spending its quick retries, until the backend has decided (seeds 000, 003).
    case kept(appleStatus: Int)
    /// The backend's setup is wrong (`serverMisconfigured`): the order stays pending, an alarm is raised, and it is
    /// tried again at the next launch or login, not every few seconds.
    case misconfigured(status: Int)

    /// Apple said the payment went through and the app receipt is empty (seed 002).
    public static let receiptEmpty = VerifyOutcome.retry(reason: "receipt empty")

    public var reason: String? {
        switch self {
        case let .retry(reason): reason
        case let .kept(status): "backend retrying Apple (\(status))"
        case .valid, .invalid, .misconfigured: nil
        }
    }

    public init(_ result: Result<VerifyResponse, BackendError>) {
        switch result {
        case .failure(.unreachable): self = .retry(reason: "backend unreachable")
        case .failure(.timeout): self = .retry(reason: "backend timed out")
        case .failure(.http(let code)): self = .retry(reason: "HTTP \(code)")
        case .failure(.notTheContract): self = .retry(reason: "backend answer not the contract's")
        case .failure(.tooLarge): self = .retry(reason: "backend answer over 1 MB")
        case .success(let response):
            let status = response.appleStatus ?? 0
            switch response.result {
            case .credited, .compensated: self = .valid
            case .rejected: self = .invalid(status: status)
            case .pending: self = response.appleStatus.map { .kept(appleStatus: $0) } ?? .retry(reason: "verification pending")
            case .notInReceipt: self = .retry(reason: "not in receipt")
            case .appleUnavailable: self = .retry(reason: "Apple unavailable (\(status))")
            case .serverMisconfigured: self = .misconfigured(status: status)
            }
        }
    }
}
