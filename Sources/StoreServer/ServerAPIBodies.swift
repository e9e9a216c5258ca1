import AppleVocabulary
import Foundation

/// The App Store Server API's bodies, with Apple's field names.
struct TransactionInfoResponse: Codable {
    let signedTransactionInfo: String
}

struct HistoryResponse: Codable {
    let revision: String
    let hasMore: Bool
    let bundleId: String
    let environment: String
    let signedTransactions: [String]
}

struct StatusResponse: Codable {
    struct GroupItem: Codable {
        let subscriptionGroupIdentifier: String
        let lastTransactions: [LastTransactionsItem]
    }

    struct LastTransactionsItem: Codable {
        /// 1 active, 2 expired, 3 billing retry, 4 billing grace period, 5 revoked.
        let status: Int
        let originalTransactionId: String
        let signedTransactionInfo: String
        let signedRenewalInfo: String
    }

    let environment: String
    let bundleId: String
    let data: [GroupItem]
}

struct RefundHistoryResponse: Codable {
    let signedTransactions: [String]
    let revision: String
    let hasMore: Bool
}

struct OrderLookupResponse: Codable {
    /// 0 the order id is the app's, 1 it is not (and `signedTransactions` is left out).
    let status: Int
    let signedTransactions: [String]?
}

struct UpdateAppAccountTokenRequest: Codable {
    let appAccountToken: String
}

struct AppTransactionInfoResponse: Codable {
    let signedAppTransactionInfo: String
}

struct SendTestNotificationResponse: Codable {
    let testNotificationToken: String
}

struct CheckTestNotificationResponse: Codable {
    let signedPayload: String
    let sendAttempts: [SendAttemptItem]
}

struct SendAttemptItem: Codable {
    let attemptDate: Int64
    /// Apple's `SendAttemptResult`.
    let sendAttemptResult: String

    /// One attempt as the outbox tells it: nil for one the server took, else why not.
    init(_ attempt: (at: Date, failure: String?)) {
        attemptDate = AppleDate.milliseconds(attempt.at)
        sendAttemptResult = switch attempt.failure {
        case nil: "SUCCESS"
        case let failure? where failure.hasPrefix("HTTP "): "UNSUCCESSFUL_HTTP_RESPONSE_CODE"
        case HTTPNotificationTransport.timedOut: "TIMED_OUT"
        case HTTPNotificationTransport.refused: "NO_RESPONSE"
        case HTTPNotificationTransport.tlsFailed: "TLS_ISSUE"
        default: "OTHER"
        }
    }
}

struct NotificationHistoryRequest: Codable {
    let startDate: Int64?
    let endDate: Int64?
    let notificationType: String?
    let notificationSubtype: String?
    let transactionId: String?
    let onlyFailures: Bool?
}

struct NotificationHistoryResponse: Codable {
    struct Item: Codable {
        let signedPayload: String
        let sendAttempts: [SendAttemptItem]
    }

    let paginationToken: String?
    let hasMore: Bool
    let notificationHistory: [Item]
}

struct ExtendRenewalDateRequest: Codable {
    let extendByDays: Int?
    /// 0 undeclared, 1 customer satisfaction, 2 another reason, 3 a service issue or outage.
    let extendReasonCode: Int?
    let requestIdentifier: String?
}

struct ExtendRenewalDateResponse: Codable {
    let originalTransactionId: String
    let webOrderLineItemId: String?
    let success: Bool
    let effectiveDate: Int64
}

struct MassExtendRenewalDateRequest: Codable {
    let extendByDays: Int?
    let extendReasonCode: Int?
    let requestIdentifier: String?
    let storefrontCountryCodes: [String]?
    let productId: String?
}

struct MassExtendRenewalDateResponse: Codable {
    let requestIdentifier: String
}

struct MassExtendRenewalDateStatusResponse: Codable {
    let requestIdentifier: String
    let complete: Bool
    let completeDate: Int64
    let succeededCount: Int
    let failedCount: Int
}

/// A token handed out and taken back as given, opaque to the caller as Apple's are: its value as base64url JSON.
protocol OpaqueToken: Codable {}

extension OpaqueToken {
    var text: String { Base64URL.encode((try? JSONEncoder().encode(self)) ?? Data()) }

    /// Nil when it is not one iapsim gave.
    init?(_ text: String) {
        guard let data = Base64URL.decode(Substring(text)), let token = try? JSONDecoder().decode(Self.self, from: data) else { return nil }
        self = token
    }
}

/// Where the next page starts: a team's server sends back what it was given.
struct PageToken: OpaqueToken {
    let after: Int64
}
