/// What the client sends its own server to verify one transaction.
public struct VerifyRequest: Sendable, Equatable {
    public let receipt: String
    public let transactionId: String
    public let productId: String
    public let orderId: String?
    public let user: String

    public init(receipt: String, transactionId: String, productId: String, orderId: String?, user: String) {
        self.receipt = receipt
        self.transactionId = transactionId
        self.productId = productId
        self.orderId = orderId
        self.user = user
    }
}

/// The server's answer, carrying Apple's `verifyReceipt` status.
public struct VerifyResponse: Sendable, Equatable {
    public let status: Int
    /// The user the credit went to (the order's owner), when credited.
    public let creditedUser: String?
    /// True when this call created the credit; false when it already existed (a replay).
    public let newlyCredited: Bool

    public init(status: Int, creditedUser: String? = nil, newlyCredited: Bool = false) {
        self.status = status
        self.creditedUser = creditedUser
        self.newlyCredited = newlyCredited
    }
}

/// Why a call to the backend did not get an answer.
public enum BackendError: Error, Sendable, Equatable {
    case unreachable
    case timeout
    case http(Int)
}

/// The three outcomes of one verification (C4).
public enum VerifyOutcome: Sendable, Equatable {
    case valid
    case invalid(status: Int)
    case retry(reason: String)

    public var reason: String? {
        if case let .retry(reason) = self { reason } else { nil }
    }

    /// Apple's statuses, as the client must treat them.
    public init(_ result: Result<VerifyResponse, BackendError>) {
        switch result {
        case .failure(.unreachable): self = .retry(reason: "backend unreachable")
        case .failure(.timeout): self = .retry(reason: "backend timed out")
        case .failure(.http(let code)): self = .retry(reason: "HTTP \(code)")
        case .success(let response):
            switch response.status {
            case ReceiptStatus.ok, ReceiptStatus.compensatedBySupport: self = .valid
            case ReceiptStatus.notAuthenticated, ReceiptStatus.accountGone: self = .invalid(status: response.status)
            case ReceiptStatus.verificationPending: self = .retry(reason: "verification pending")
            default: self = .retry(reason: "status \(response.status)")
            }
        }
    }
}

/// `verifyReceipt` status codes, plus the backend's own support code (B5).
public enum ReceiptStatus {
    public static let ok = 0
    public static let malformed = 21002
    public static let notAuthenticated = 21003
    public static let unavailable = 21005
    public static let sandboxReceiptInProduction = 21007
    public static let productionReceiptInSandbox = 21008
    public static let accountGone = 21010
    /// Not Apple's: support marked the order "compensated by hand", so the client finishes it.
    public static let compensatedBySupport = 40001
    /// Not Apple's: the backend has not decided yet; the client asks again later.
    public static let verificationPending = 40002
}

/// What a user holds on the backend.
public struct Account: Sendable, Equatable {
    public var coins: Int
    /// Units held of each consumable that grants one unit of itself, by product id.
    public var units: [String: Int] = [:]
    public var owned: Set<String>

    public init(coins: Int = 0, owned: Set<String> = []) {
        self.coins = coins
        self.owned = owned
    }
}
