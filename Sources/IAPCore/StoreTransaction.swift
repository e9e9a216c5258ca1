import Foundation

/// StoreKit 1 transaction states. A cancelled payment is `failed` with `StoreError.cancelled`, as in StoreKit.
public enum TransactionState: String, Sendable, Equatable, CaseIterable {
    case purchasing, purchased, failed, deferred, restored
}

public enum StoreError: String, Sendable, Equatable {
    case cancelled
    case paymentFailed = "payment-failed"
    case alreadyPending = "already-pending"
    case unknownProduct = "unknown-product"
    /// Ask to Buy: the parent said no.
    case declined
    /// The payment was interrupted (a sheet to accept new terms, say); a purchased transaction may follow.
    case interrupted
}

/// What the payment queue reports to its observer, shaped like `SKPaymentTransaction`.
public struct StoreTransaction: Sendable, Equatable {
    public let id: String
    public let productId: String
    public var state: TransactionState
    /// The order id the client put on the payment; may come back empty.
    public let applicationUsername: String?
    public let date: Date
    public var error: StoreError?

    public init(id: String, productId: String, state: TransactionState, applicationUsername: String?, date: Date, error: StoreError? = nil) {
        self.id = id
        self.productId = productId
        self.state = state
        self.applicationUsername = applicationUsername
        self.date = date
        self.error = error
    }
}

/// A payment as the client adds it to the queue.
public struct Payment: Sendable, Equatable {
    public let productId: String
    public let applicationUsername: String?

    public init(productId: String, applicationUsername: String?) {
        self.productId = productId
        self.applicationUsername = applicationUsername
    }
}
