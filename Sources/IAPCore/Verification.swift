/// What the client sends its own server to verify one transaction (the body of `POST /verify`).
public struct VerifyRequest: Codable, Sendable, Equatable {
    public let receipt: String
    public let transactionId: String
    public let productId: String
    public let orderId: String?
    public let user: String
    /// A short hash of `receipt` (seed 002's md5): the backend tells a receipt it has seen for a decided transaction.
    public let receiptHash: String?
    /// True when `user` pressed Buy or Restore for this transaction (`PendingOrder.claimsOwnership`); absent otherwise.
    public let claimsOwnership: Bool?
    /// StoreKit 2: the transaction's `jwsRepresentation`, which the server checks before it credits; absent in StoreKit 1.
    public let signedTransaction: String?
    /// StoreKit 2: true when the transaction is one of the entitlements `AppStore.sync()` brought back for `user` (Restore),
    /// not a payment: the server's restore policy decides who holds it; absent otherwise.
    public let restore: Bool?

    public init(receipt: String, transactionId: String, productId: String, orderId: String?, user: String, receiptHash: String? = nil,
                claimsOwnership: Bool? = nil, signedTransaction: String? = nil, restore: Bool? = nil) {
        self.receipt = receipt
        self.transactionId = transactionId
        self.productId = productId
        self.orderId = orderId
        self.user = user
        self.receiptHash = receiptHash
        self.claimsOwnership = claimsOwnership
        self.signedTransaction = signedTransaction
        self.restore = restore
    }
}

/// Why a call to the backend did not get an answer.
public enum BackendError: Error, Sendable, Equatable {
    case unreachable
    case timeout
    case http(Int)
    /// A success status whose body is not the contract's JSON.
    case notTheContract(status: Int)
    /// A body over the most the client reads (1 MB).
    case tooLarge(status: Int)
}

/// What a user holds on the backend.
public struct Account: Sendable, Equatable {
    public var coins: Int
    /// Units held of each consumable that grants one unit of itself, by product id.
    public var units: [String: Int] = [:]
    public var owned: Set<String>
    /// Of `owned`, what the user holds only through Family Sharing (another Apple ID of the family paid).
    public var familyShared: Set<String> = []
    /// The subscription groups the user has a credit in, refunded ones too: where a server that gives the intro offer
    /// once per app user withholds it (StoreKit 2), whichever Apple ID pays.
    public var subscribedGroups: Set<String> = []

    public init(coins: Int = 0, owned: Set<String> = []) {
        self.coins = coins
        self.owned = owned
    }
}
