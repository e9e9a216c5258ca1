/// What a support desk sees of a paid transaction no evidence on the device could attribute (A3): Apple's side, as
/// the App Store Server API gives a team (the Apple ID's transactions, each with the order id the app put on its
/// payment), beside the app's own orders and who made them. Never who pressed Buy: no real desk knows that.
public struct SupportCase: Sendable, Equatable {
    public let transactionId: String
    /// The Apple ID Apple charged.
    public let appleId: String?
    /// The order id the app put on this payment (`applicationUsername`), if any came back.
    public let orderId: String?
    /// Who made that order, in the app's own records.
    public let orderOwner: String?
    /// Who made the orders of the Apple ID's other payments, each app user once.
    public let appleIdOrderOwners: [String]
    /// No Apple ID was ever signed in on any device of the data: each app user paid with an Apple ID of their own name.
    public let appleIdsPerUser: Bool

    public init(transactionId: String, appleId: String?, orderId: String?, orderOwner: String?, appleIdOrderOwners: [String],
                appleIdsPerUser: Bool) {
        self.transactionId = transactionId
        self.appleId = appleId
        self.orderId = orderId
        self.orderOwner = orderOwner
        self.appleIdOrderOwners = appleIdOrderOwners
        self.appleIdsPerUser = appleIdsPerUser
    }

    /// Whom the records name: the order's owner; else, where every app user has an Apple ID of their own name, that
    /// name. The Apple ID's other payments name no one: one Apple ID pays for every app user of a phone (A1), and one of
    /// them may pay with it for the first time. Nil: the records name no one, and support asks the customer.
    public var payer: String? {
        orderOwner ?? (appleIdsPerUser ? appleId : nil)
    }
}
