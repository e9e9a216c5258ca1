/// Apple's `verifyReceipt` status codes, with Apple's meaning. Only Apple's: the backend's own verdicts are
/// `VerifyResponse.Result`.
public enum ReceiptStatus {
    public static let ok = 0
    /// The request was not an HTTP POST, its body was not JSON, or it had no `receipt-data`.
    public static let badRequest = 21000
    /// No longer sent by Apple; listed so that a forced one reads as Apple's.
    public static let noLongerSent = 21001
    /// `receipt-data` was malformed, or the service experienced a temporary issue: Apple says to try again.
    public static let malformed = 21002
    /// The receipt could not be authenticated.
    public static let notAuthenticated = 21003
    /// The `password` is not the app's shared secret: the server is misconfigured, and asking again changes nothing.
    public static let sharedSecretMismatch = 21004
    /// The receipt server was temporarily unable to answer; retryable.
    public static let unavailable = 21005
    /// The receipt is valid but its subscription has expired (iOS 6 style receipts only).
    public static let subscriptionExpired = 21006
    /// A sandbox receipt was sent to production: the server should ask the sandbox.
    public static let sandboxReceiptInProduction = 21007
    /// A production receipt was sent to the sandbox: the server should ask production.
    public static let productionReceiptInSandbox = 21008
    /// An internal data access error at Apple; retryable.
    public static let internalDataAccess = 21009
    /// The user account cannot be found or was deleted.
    public static let accountNotFound = 21010
    /// Internal errors at Apple; retryable.
    public static let internalErrors = 21100...21199

    /// Apple's `is-retryable`: true for the statuses Apple marks as worth asking again.
    public static func isRetryable(_ status: Int) -> Bool {
        status == unavailable || status == internalDataAccess || internalErrors.contains(status)
    }
}
