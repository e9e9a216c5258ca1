import Foundation

/// Work the reducer asks the runtime to do. Each answers, when it does, with an `Action`.
public enum Effect: Sendable, Equatable {
    case requestProducts
    case loadUser(String)
    case setLastUser(String?)
    case refreshAccount(String)
    case createOrder(user: String, productId: String)
    case recordIntent(user: String, productId: String, orderId: String?)
    case addPayment(Payment)
    case cancelPayment(transactionId: String)
    /// Write the order (insert or update) and read it back; answers `.persisted`.
    case persist(PendingOrder)
    /// Resolve the order id, fetch the receipt, ask the backend; answers `.verified`.
    case verify(PendingOrder)
    /// Answers `.finished`; `user` names whose order to remove afterwards.
    case finish(transactionId: String, user: String?)
    case remove(transactionId: String, user: String)
    case wake(at: Date)
    case setFault(Fault, Bool)
    /// Move the app's clock to the next scheduled event.
    case skipTime
    case quit
}
