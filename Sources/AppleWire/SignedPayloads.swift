import AppleVocabulary
import Foundation
import IAPCore
import JWTKit

/// A signed transaction is what JWTKit signs and verifies.
extension JWSTransaction: JWTPayload {
    public func verify(using algorithm: some JWTAlgorithm) throws {}
}

/// Renewal info is what JWTKit signs and verifies too.
extension JWSRenewalInfo: JWTPayload {
    public func verify(using algorithm: some JWTAlgorithm) throws {}
}

/// Apple's `AppTransaction` (`JWSAppTransactionDecodedPayload`): the customer's download of the app.
public struct JWSAppTransaction: JWTPayload, Equatable {
    public var receiptType: String
    public var bundleId: String
    public var applicationVersion: String
    public var originalApplicationVersion: String
    public var receiptCreationDate: Int64
    public var originalPurchaseDate: Int64
    public var appTransactionId: String
    public var originalPlatform: String
    public var signedDate: Int64

    public func verify(using algorithm: some JWTAlgorithm) throws {}

    public init(_ download: AppleAppTransaction, signedAt signed: Date) {
        receiptType = AppleSandbox.environment
        bundleId = Receipt.bundleId
        applicationVersion = AppleSandbox.bundleVersion
        // Apple: in the sandbox it is always 1.0, as the receipt's original_application_version is.
        originalApplicationVersion = Receipt.originalApplicationVersion
        receiptCreationDate = AppleDate.milliseconds(signed)
        originalPurchaseDate = AppleDate.milliseconds(download.originalPurchaseDate)
        appTransactionId = download.appTransactionId
        originalPlatform = "iOS"
        signedDate = receiptCreationDate
    }
}

/// Apple's `ResponseBodyV2DecodedPayload`: one App Store Server Notification V2.
public struct NotificationPayload: JWTPayload, Equatable {
    public struct Data: Codable, Sendable, Equatable {
        public var bundleId: String
        public var bundleVersion: String
        public var environment: String
        public var signedTransactionInfo: String?
        public var signedRenewalInfo: String?
        /// The subscription's status: 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked.
        public var status: Int?
        /// CONSUMPTION_REQUEST's: the reason the customer gave when asking for the refund.
        public var consumptionRequestReason: String?

        /// For this app (`Receipt.bundleId`) in iapsim's one environment.
        public init(signedTransactionInfo: String?, signedRenewalInfo: String?, status: Int?, consumptionRequestReason: String? = nil) {
            bundleId = Receipt.bundleId
            bundleVersion = AppleSandbox.bundleVersion
            environment = AppleSandbox.environment
            self.signedTransactionInfo = signedTransactionInfo
            self.signedRenewalInfo = signedRenewalInfo
            self.status = status
            self.consumptionRequestReason = consumptionRequestReason
        }
    }

    /// Apple's `Summary`: RENEWAL_EXTENSION / SUMMARY carries it in place of `data`.
    public struct Summary: Codable, Sendable, Equatable {
        public var bundleId: String
        public var environment: String
        public var productId: String
        public var requestIdentifier: String
        public var storefrontCountryCodes: [String]
        public var succeededCount: Int
        public var failedCount: Int

        public init(_ summary: StoreNotification.ExtensionSummary) {
            bundleId = Receipt.bundleId
            environment = AppleSandbox.environment
            productId = summary.productId
            requestIdentifier = summary.requestIdentifier
            storefrontCountryCodes = summary.storefrontCountryCodes
            succeededCount = summary.succeededCount
            failedCount = summary.failedCount
        }
    }

    public var notificationType: String
    public var subtype: String?
    public var notificationUUID: String
    /// Every notification's but RENEWAL_EXTENSION / SUMMARY's.
    public var data: Data?
    public var summary: Summary?
    public var version: String
    public var signedDate: Int64

    public func verify(using algorithm: some JWTAlgorithm) throws {}

    public init(type: String, subtype: String?, uuid: String, data: Data?, summary: Summary? = nil, signedAt signed: Date) {
        notificationType = type
        self.subtype = subtype
        notificationUUID = uuid
        self.data = data
        self.summary = summary
        version = "2.0"
        signedDate = AppleDate.milliseconds(signed)
    }
}

