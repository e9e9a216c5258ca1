import Foundation

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
    static let invalidExtendByDays = APIErrorBody(errorCode: 4000009, errorMessage: "Invalid extend by days value.")
    static let invalidExtendReasonCode = APIErrorBody(errorCode: 4000010, errorMessage: "Invalid extend reason code.")
    static let invalidRequestIdentifier = APIErrorBody(errorCode: 4000011, errorMessage: "Invalid request identifier.")
    static let startDateTooFarInPast = APIErrorBody(
        errorCode: 4000012, errorMessage: "Invalid request. The start date is earlier than the allowed start date.")
    static let startDateAfterEndDate = APIErrorBody(
        errorCode: 4000013, errorMessage: "Invalid request. The end date precedes the start date or the dates are the same.")
    static let invalidPaginationToken = APIErrorBody(errorCode: 4000014, errorMessage: "Invalid request. The pagination token is invalid.")
    static let invalidStartDate = APIErrorBody(
        errorCode: 4000015, errorMessage: "Invalid request. The start date is not a timestamp value represented in milliseconds.")
    static let invalidEndDate = APIErrorBody(
        errorCode: 4000016, errorMessage: "Invalid request. The end date is not a timestamp value represented in milliseconds.")
    static let invalidNotificationType = APIErrorBody(
        errorCode: 4000018, errorMessage: "Invalid request. The notification type or subtype is invalid.")
    static let multipleFiltersSupplied = APIErrorBody(
        errorCode: 4000019, errorMessage: "Invalid request. Supply either a transaction id or a notification type, but not both.")
    static let invalidTestNotificationToken = APIErrorBody(
        errorCode: 4000020, errorMessage: "Invalid request. The test notification token is invalid.")
    static let invalidSort = APIErrorBody(errorCode: 4000021, errorMessage: "Invalid sort.")
    static let invalidProductType = APIErrorBody(errorCode: 4000022, errorMessage: "Invalid request. The product type parameter is invalid.")
    static let invalidProductId = APIErrorBody(errorCode: 4000023, errorMessage: "Invalid request. The product id parameter is invalid.")
    static let invalidSubscriptionGroupIdentifier = APIErrorBody(
        errorCode: 4000024, errorMessage: "Invalid request. The subscription group identifier parameter is invalid.")
    static let invalidInAppOwnershipType = APIErrorBody(errorCode: 4000026, errorMessage: "Invalid request. The in-app ownership type parameter is invalid.")
    static let invalidRevoked = APIErrorBody(errorCode: 4000030, errorMessage: "Invalid request. The revoked parameter is invalid.")
    static let invalidStorefrontCountryCode = APIErrorBody(errorCode: 4000028,
                                                           errorMessage: "Invalid request. A storefront country code was invalid.")
    static let invalidStatus = APIErrorBody(errorCode: 4000031, errorMessage: "Invalid request. The status parameter is invalid.")
    static let invalidTransactionTypeNotSupported = APIErrorBody(
        errorCode: 4000047, errorMessage: "Invalid request. The transaction id doesn't represent a supported in-app purchase type.")
    static let invalidAppAccountTokenUUID = APIErrorBody(errorCode: 4000183,
                                                         errorMessage: "Invalid request. The app account token field must be a valid UUID.")
    static let familyTransactionNotSupported = APIErrorBody(
        errorCode: 4000185, errorMessage: "Invalid request. The transaction is for a product the customer obtains through Family Sharing, which the endpoint doesn't support.")
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
        errorCode: 4040009,
        errorMessage: "The server didn't find a subscription-renewal-date extension request for this requestIdentifier and productId combination.")
    static let transactionIdNotFound = APIErrorBody(errorCode: 4040010, errorMessage: "Transaction id not found.")
    static let appTransactionDoesNotExist = APIErrorBody(
        errorCode: 4040019, errorMessage: "Invalid request. An app transaction does not exist for the specified customer.")

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
