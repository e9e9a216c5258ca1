/// The backend's answer to `POST /verify`: its own verdict on one transaction, and Apple's `verifyReceipt` status
/// when Apple was asked. A team's own server answers the same JSON, so the names are a contract and do not change:
///
///     {"result": "credited", "creditedUser": "alice", "newlyCredited": true, "appleStatus": 0}
///     {"result": "compensated"}
///     {"result": "pending"}
///     {"result": "pending", "appleStatus": 21005}
///     {"result": "notInReceipt", "appleStatus": 0}
///     {"result": "rejected", "appleStatus": 21003}
///     {"result": "appleUnavailable", "appleStatus": 21005}
///     {"result": "serverMisconfigured", "appleStatus": 21004}
///
/// Keys without a value are left out. `Verdict` says what each result asks of the client.
public struct VerifyResponse: Codable, Sendable, Equatable {
    public enum Verdict: String, Codable, Sendable, CaseIterable {
        /// Credited to `creditedUser`; `newlyCredited` is false when this replay found the credit already made. Finish.
        case credited
        /// Support compensated the order by hand (B5). Finish, nothing is credited.
        case compensated
        /// The server has not decided yet. Ask again later. With `appleStatus`: the server keeps the request and asks
        /// Apple again itself, with back-off.
        case pending
        /// Apple's receipt does not list the transaction (yet). Refresh the receipt and ask again.
        case notInReceipt
        /// Apple refused the receipt for good (21003, 21006, 21010). Finish, nothing is credited.
        case rejected
        /// Apple could not verify it now (21002, 21005, 21009, 21100–21199, 21007/21008 from both endpoints, …). Ask
        /// again with back-off.
        case appleUnavailable
        /// The server's own setup is wrong (21004: its shared secret; 21000: its request to Apple): asking again
        /// changes nothing until someone fixes the server. Do not finish; raise an alarm.
        case serverMisconfigured
        /// StoreKit 2: the signed transaction failed the server's check (`failedCheck` says which). Nothing is credited
        /// or decided: ask StoreKit for the transaction again and retry with back-off; never finish it for this.
        case unverified
    }

    /// The JSON's discriminator.
    public let result: Verdict
    /// Apple's `verifyReceipt` status behind the verdict; absent when Apple was not asked.
    public let appleStatus: Int?
    public let creditedUser: String?
    public let newlyCredited: Bool?
    /// With `unverified`: which of the signed transaction's checks failed.
    public let failedCheck: SignedTransactionFlaw?

    public init(result: Verdict, appleStatus: Int? = nil, creditedUser: String? = nil, newlyCredited: Bool? = nil,
                failedCheck: SignedTransactionFlaw? = nil) {
        self.result = result
        self.appleStatus = appleStatus
        self.creditedUser = creditedUser
        self.newlyCredited = newlyCredited
        self.failedCheck = failedCheck
    }

    public static func unverified(_ flaw: SignedTransactionFlaw) -> VerifyResponse {
        VerifyResponse(result: .unverified, failedCheck: flaw)
    }

    public static func credited(user: String, new: Bool) -> VerifyResponse {
        VerifyResponse(result: .credited, appleStatus: ReceiptStatus.ok, creditedUser: user, newlyCredited: new)
    }

    public static let compensated = VerifyResponse(result: .compensated)
    public static let pending = VerifyResponse(result: .pending)

    /// The server keeps the request and asks Apple again itself; `appleStatus` is Apple's latest answer.
    public static func pending(appleStatus: Int) -> VerifyResponse {
        VerifyResponse(result: .pending, appleStatus: appleStatus)
    }
    public static let notInReceipt = VerifyResponse(result: .notInReceipt, appleStatus: ReceiptStatus.ok)

    /// The backend's verdict on an answer from Apple other than a usable receipt.
    public static func apple(_ status: Int) -> VerifyResponse {
        let verdict: Verdict = switch status {
        case ReceiptStatus.notAuthenticated, ReceiptStatus.subscriptionExpired, ReceiptStatus.accountNotFound:
            .rejected
        case ReceiptStatus.badRequest, ReceiptStatus.sharedSecretMismatch:
            .serverMisconfigured
        // 21002 ("malformed or the service experienced a temporary issue. Try again.", Apple's words), 21005, 21009,
        // 211xx; 21007 or 21008 from both endpoints (seed 004: asked again until the fallback works);
        // and anything Apple may add: money was paid, so an answer that does not refuse it is asked again (I1).
        default: .appleUnavailable
        }
        return VerifyResponse(result: verdict, appleStatus: status)
    }
}
