/// The outcomes of one verification (C4), as the client acts on them.
public enum VerifyOutcome: Sendable, Equatable {
    case valid
    /// Valid, and credited already (a renewal the backend heard of from Apple first, a restore, a free re-buy, a replay):
    /// nothing is credited a second time. Finished as `valid`.
    case alreadyCredited
    /// Credited, to another app user than the one who asked: the backend keeps the purchase with them (A2's
    /// "keep with the original"), or it was theirs all along. Finished as any credit; the HUD says whose it is.
    case creditedElsewhere(user: String)
    case invalid(status: Int)
    case retry(reason: RetryReason)
    /// The backend keeps the request and asks Apple again itself (Apple's latest status): the client polls, at its
    /// back-off, without spending its quick retries, until the backend has decided (seeds 000, 003).
    case kept(appleStatus: Int)
    /// The backend's setup is wrong (`serverMisconfigured`): the order stays pending, an alarm is raised, and it is
    /// tried again at the next launch or login, not every few seconds.
    case misconfigured(status: Int)

    /// Apple said the payment went through and the app receipt is empty (seed 002).
    public static let receiptEmpty = VerifyOutcome.retry(reason: .receiptEmpty)

    public var reason: RetryReason? {
        switch self {
        case let .retry(reason): reason
        case let .kept(status): .backendRetryingApple(status)
        case .valid, .alreadyCredited, .creditedElsewhere, .invalid, .misconfigured: nil
        }
    }

    /// `requester`: the user whose order was verified; a credit to anyone else is `creditedElsewhere`.
    public init(_ result: Result<VerifyResponse, BackendError>, requester: String? = nil) {
        switch result {
        case .failure(.unreachable): self = .retry(reason: .backendUnreachable)
        case .failure(.timeout): self = .retry(reason: .backendTimedOut)
        case .failure(.http(let code)): self = .retry(reason: .http(code))
        case .failure(.notTheContract): self = .retry(reason: .notTheContract)
        case .failure(.tooLarge): self = .retry(reason: .tooLarge)
        case .success(let response):
            let status = response.appleStatus ?? 0
            switch response.result {
            case .credited:
                if let requester, let other = response.creditedUser, other != requester {
                    self = .creditedElsewhere(user: other)
                } else {
                    self = response.newlyCredited == false ? .alreadyCredited : .valid
                }
            case .compensated: self = .valid
            case .rejected: self = .invalid(status: status)
            case .pending: self = response.appleStatus.map { .kept(appleStatus: $0) } ?? .retry(reason: .verificationPending)
            case .notInReceipt: self = .retry(reason: .notInReceipt)
            case .appleUnavailable: self = .retry(reason: .appleUnavailable(status))
            case .serverMisconfigured: self = .misconfigured(status: status)
            case .unverified: self = .retry(reason: .unverified(response.failedCheck))
            }
        }
    }
}

/// Why a verification will be tried again: one typed source, which the screens word (`words`, in both languages).
public enum RetryReason: Sendable, Equatable {
    case backendUnreachable, backendTimedOut
    /// A success status whose body is not the contract's JSON; a body over 1 MB.
    case notTheContract, tooLarge
    case http(Int)
    /// Apple said the payment went through and the app receipt is empty (seed 002).
    case receiptEmpty
    /// The backend has not decided yet.
    case verificationPending
    /// Apple's receipt does not list the transaction yet.
    case notInReceipt
    /// Apple's status that asks to try again, passed on by a server that keeps no queue of its own.
    case appleUnavailable(Int)
    /// The backend keeps the request and asks Apple again itself (Apple's latest status).
    case backendRetryingApple(Int)
    /// StoreKit 2: the signed transaction failed the server's check (which one, when it said).
    case unverified(SignedTransactionFlaw?)

    /// In English, as the timeline, the alarms and the backend's list of alarms say it.
    public var english: String {
        switch self {
        case .backendUnreachable: "backend unreachable"
        case .backendTimedOut: "backend timed out"
        case .notTheContract: "backend answer not the contract's"
        case .tooLarge: "backend answer over 1 MB"
        case let .http(code): "HTTP \(code)"
        case .receiptEmpty: "receipt empty"
        case .verificationPending: "verification pending"
        case .notInReceipt: "not in the receipt yet"
        case let .appleUnavailable(status): "Apple unavailable (\(status))"
        case let .backendRetryingApple(status): "backend retrying Apple (\(status))"
        case let .unverified(flaw): "signed transaction unverified" + (flaw.map { " (\($0.rawValue))" } ?? "")
        }
    }
}
