/// Faults QA arm on purpose. Sticky until disarmed.
public enum Fault: String, Sendable, Equatable, CaseIterable {
    case backendDown = "backend-down"
    case paymentsDisabled = "payments-disabled"
    case purchaseFails = "purchase-fails"
    case emptyApplicationUsername = "empty-application-username"
    case finishNotFound = "finish-not-found"

    public var summary: String {
        switch self {
        case .backendDown: "the backend is unreachable: orders cannot be created or verified"
        case .paymentsDisabled: "canMakePayments is off on this device"
        case .purchaseFails: "the store fails every payment"
        case .emptyApplicationUsername: "the store returns transactions without applicationUsername"
        case .finishNotFound: "finishTransaction cannot find the transaction (it stays in the queue)"
        }
    }
}
