/// Why a receipt was refused, in `verifyReceipt` terms.
public enum ReceiptCheck: Equatable, Sendable {
    case valid(Receipt)
    case malformed
    case notAuthenticated
}

/// A receipt as the store sealed it: the base64 the app is handed, and what `verifyReceipt` reads from those bytes.
public struct SealedReceipt: Equatable, Sendable {
    public let base64: String
    public let contents: Receipt

    public init(base64: String, contents: Receipt) {
        self.base64 = base64
        self.contents = contents
    }
}
