/// Apple's `verifyReceipt` as the app's server calls it: a request answered with Apple's status and, when it is 0, the
/// receipt and its subscriptions. The mock App Store answers it in process; over HTTP it is `POST /verifyReceipt`.
public protocol ReceiptVerifying {
    /// The app's shared secret, which the app's server sends as `password`.
    func sharedSecret() throws -> String
    func verify(_ request: VerifyReceiptRequest, at environment: AppleEnvironment) -> VerifyReceiptResponse
}
