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

struct SendTestNotificationResponse: Codable {
    let testNotificationToken: String
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
    static let invalidSort = APIErrorBody(errorCode: 4000021, errorMessage: "Invalid sort.")
    static let transactionIdNotFound = APIErrorBody(errorCode: 4040010, errorMessage: "Transaction id not found.")
    static let generalInternal = APIErrorBody(errorCode: 5000000, errorMessage: "An unknown error occurred.")
    static let generalInternalRetryable = APIErrorBody(errorCode: 5000001, errorMessage: "An unknown error occurred. Please try again.")
}
