import Foundation

/// A paid transaction the client holds for one user until the store has finished it (C2, I5).
public struct PendingOrder: Sendable, Equatable {
    public enum Status: String, Sendable, Equatable {
        /// Not yet credited; the verify queue owns it.
        case pending
        /// Credited by the backend; waits only for the store to finish it (C5, C6).
        case verified
        /// Definitively rejected by the backend; waits only for the store to finish it.
        case rejected
    }

    /// What the order paid: a value, shown in the language of the moment it is shown.
    public enum Price: Sendable, Equatable, ExpressibleByStringLiteral {
        case value(Money)
        /// The words an earlier version kept instead, made in the language shown at the purchase.
        case shown(String)

        public init(stringLiteral text: String) {
            self = .shown(text)
        }
    }

    public let transactionId: String
    public let user: String
    public let productId: String
    public var orderId: String?
    public let purchasedAt: Date
    /// Nil when the catalog gave the product no amount: it is shown at its catalog price.
    public let price: Price?
    public var receiptHash: String?
    public var attempts: Int
    public var lastAttemptAt: Date?
    public var status: Status
    /// The user pressed Buy or Restore for this very transaction (their payment, their restore, their intent): only
    /// then may the backend's restore policy give them what another app user of the same Apple ID holds (A2). A
    /// transaction the user only carries (a renewal, a restore re-delivered to whoever is logged in) claims nothing.
    public let claimsOwnership: Bool
    /// The Apple ID signed in when it was claimed, whose queue the transaction was in (nil: each app user's own): the
    /// store shows it, and finishes it, only while that Apple ID is signed in.
    public let appleId: String?

    public init(
        transactionId: String, user: String, productId: String, orderId: String?, purchasedAt: Date,
        price: Price?, receiptHash: String?, attempts: Int = 0, lastAttemptAt: Date? = nil, status: Status = .pending,
        claimsOwnership: Bool = false, appleId: String? = nil
    ) {
        self.transactionId = transactionId
        self.user = user
        self.productId = productId
        self.orderId = orderId
        self.purchasedAt = purchasedAt
        self.price = price
        self.receiptHash = receiptHash
        self.attempts = attempts
        self.lastAttemptAt = lastAttemptAt
        self.status = status
        self.claimsOwnership = claimsOwnership
        self.appleId = appleId
    }
}
