/// Why a receipt was refused, in `verifyReceipt` terms.
public enum ReceiptCheck: Equatable, Sendable {
    case valid(Receipt)
    case malformed
    case notAuthenticated
}
