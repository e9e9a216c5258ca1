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
        case "timed out": "TIMED_OUT"
        case "connection refused": "NO_RESPONSE"
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

/// Where the next page starts, opaque to the caller as Apple's tokens are: a team's server sends back what it was given.
struct PageToken: Codable {
    let after: Int64

    var text: String { Base64URL.encode((try? JSONEncoder().encode(self)) ?? Data()) }

    init(after: Int64) {
        self.after = after
    }

    /// Nil when it is not one iapsim gave.
    init?(_ text: String) {
        guard let data = Base64URL.decode(Substring(text)), let token = try? JSONDecoder().decode(PageToken.self, from: data) else { return nil }
        self = token
    }
}

/// Apple's error body: a number to act on and a sentence for people.
struct APIErrorBody: Codable, Error {
    let errorCode: Int
    let errorMessage: String
    /// The HTTP status it travels with.
    var status: Int { errorCode / 10000 }

    static let generalBadRequest = APIErrorBody(errorCode: 4000000, errorMessage: "Bad request.")
    static let invalidRevision = APIErrorBody(errorCode: 4000005, errorMessage: "Invalid request revision.")
    static let invalidTransactionId = APIErrorBody(errorCode: 4000006, errorMessage: "Invalid transaction id.")
    static let invalidOriginalTransactionId = APIErrorBody(errorCode: 4000008, errorMessage: "Invalid original transaction id.")
    static let startDateTooFarInPast = APIErrorBody(errorCode: 4000012, errorMessage: "Invalid request. The start date is earlier than the allowed start date.")
    static let startDateAfterEndDate = APIErrorBody(errorCode: 4000013, errorMessage: "Invalid request. The end date precedes the start date or the dates are the same.")
    static let invalidExtendByDays = APIErrorBody(errorCode: 4000009, errorMessage: "Invalid extend by days value.")
    static let invalidExtendReasonCode = APIErrorBody(errorCode: 4000010, errorMessage: "Invalid extend reason code.")
    static let invalidRequestIdentifier = APIErrorBody(errorCode: 4000011, errorMessage: "Invalid request identifier.")
    static let invalidPaginationToken = APIErrorBody(errorCode: 4000014, errorMessage: "Invalid request. The pagination token is invalid.")
    static let invalidStartDate = APIErrorBody(errorCode: 4000015, errorMessage: "Invalid request. The start date is not a timestamp value represented in milliseconds.")
    static let invalidEndDate = APIErrorBody(errorCode: 4000016, errorMessage: "Invalid request. The end date is not a timestamp value represented in milliseconds.")
    static let invalidNotificationType = APIErrorBody(errorCode: 4000018, errorMessage: "Invalid request. The notification type or subtype is invalid.")
    static let multipleFiltersSupplied = APIErrorBody(errorCode: 4000019, errorMessage: "Invalid request. Supply either a transaction id or a notification type, but not both.")
    static let invalidTestNotificationToken = APIErrorBody(errorCode: 4000020, errorMessage: "Invalid request. The test notification token is invalid.")
    static let invalidSort = APIErrorBody(errorCode: 4000021, errorMessage: "Invalid sort.")
    static let invalidProductId = APIErrorBody(errorCode: 4000023, errorMessage: "Invalid request. The product id parameter is invalid.")
    static let invalidStorefrontCountryCode = APIErrorBody(errorCode: 4000028,
                                                           errorMessage: "Invalid request. A storefront country code was invalid.")
    static let invalidStatus = APIErrorBody(errorCode: 4000031, errorMessage: "Invalid request. The status parameter is invalid.")
    static let invalidAppAccountTokenUUID = APIErrorBody(errorCode: 4000183,
                                                         errorMessage: "Invalid request. The app account token field must be a valid UUID.")
    static let transactionIdIsNotOriginal = APIErrorBody(
        errorCode: 4000187, errorMessage: "Invalid request. The transaction id parameter must represent an original transaction id.")
    static let subscriptionExtensionIneligible = APIErrorBody(errorCode: 4030004,
                                                              errorMessage: "Forbidden - subscription state ineligible for extension.")
    static let subscriptionMaxExtension = APIErrorBody(errorCode: 4030005,
                                                       errorMessage: "Forbidden - subscription has reached maximum extension count.")
    static let originalTransactionIdNotFound = APIErrorBody(errorCode: 4040005, errorMessage: "Original transaction id not found.")
    static let testNotificationNotFound = APIErrorBody(errorCode: 4040008,
                                                       errorMessage: "Either the test notification was not found or it is not yet available.")
    static let statusRequestNotFound = APIErrorBody(
        errorCode: 4040009, errorMessage: "The server didn't find a subscription-renewal-date extension request for this requestIdentifier and productId combination.")
    static let transactionIdNotFound = APIErrorBody(errorCode: 4040010, errorMessage: "Transaction id not found.")
    static let appTransactionDoesNotExist = APIErrorBody(errorCode: 4040019,
                                                         errorMessage: "Invalid request. An app transaction does not exist for the specified customer.")
    static let invalidTransactionTypeNotSupported = APIErrorBody(
        errorCode: 4000047, errorMessage: "Invalid request. The transaction id doesn't represent a supported in-app purchase type.")

    /// Apple's error for a request body's field it refuses; a bad request for a field without its own.
    static func refusing(_ field: String?) -> APIErrorBody {
        let codes: [String: (Int, String)] = [
            "accountTenure": (4000032, "account tenure"), "appAccountToken": (4000033, "app account token"),
            "consumptionStatus": (4000034, "consumption status"), "customerConsented": (4000035, "customer consented"),
            "deliveryStatus": (4000036, "delivery status"), "lifetimeDollarsPurchased": (4000037, "lifetime dollars purchased"),
            "lifetimeDollarsRefunded": (4000038, "lifetime dollars refunded"), "platform": (4000039, "platform"),
            "playTime": (4000040, "play time"), "sampleContentProvided": (4000041, "sample content provided"),
            "userStatus": (4000042, "user status"),
        ]
        guard let field, let (code, words) = codes[field] else { return generalBadRequest }
        return APIErrorBody(errorCode: code, errorMessage: "Invalid request. The \(words) field is invalid.")
    }

    static let generalInternal = APIErrorBody(errorCode: 5000000, errorMessage: "An unknown error occurred.")
    static let generalInternalRetryable = APIErrorBody(errorCode: 5000001, errorMessage: "An unknown error occurred. Please try again.")
}
