/// What can make a StoreKit 2 signed transaction fail the checks a device's `VerificationResult` and the app's server
/// make (the fault `unverified-transaction`, and the server's answer naming which failed).
public enum SignedTransactionFlaw: String, Codable, Sendable, Equatable, CaseIterable, Error {
    /// Not signed by a chain that ends at Apple's root, or the signature does not match what it covers.
    case signature
    /// Signed for another app (`bundleId`).
    case bundle
    /// Signed for another environment than the server's (`environment`).
    case environment
}
