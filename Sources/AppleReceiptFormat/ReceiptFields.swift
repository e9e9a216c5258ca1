/// The attribute types of Apple's receipt payload (Apple's "Receipt Fields" and the in-app purchase fields inside type
/// 17), and the two iapsim writes of its own.
enum ReceiptFields {
    /// "ProductionSandbox" or "Production", as a sandbox and a production receipt say.
    static let receiptType = 0
    static let bundleId = 2
    static let appVersion = 3
    static let opaqueValue = 4
    static let sha1Hash = 5
    static let creationDate = 12
    static let inApp = 17
    static let originalAppVersion = 19

    static let quantity = 1701
    static let productId = 1702
    static let transactionId = 1703
    static let purchaseDate = 1704
    static let originalTransactionId = 1705
    static let originalPurchaseDate = 1706
    static let expiresDate = 1708
    static let webOrderLineItemId = 1711
    static let cancellationDate = 1712
    static let isTrialPeriod = 1713
    static let isInIntroOfferPeriod = 1719
    static let promotionalOfferId = 1721

    /// Apple's verifyReceipt answers with these from its records, not from the receipt: iapsim's verifyReceipt reads the
    /// receipt alone, so they travel in it under types Apple does not use, which any other reader skips.
    static let cancellationReason = 1790
    static let subscriptionGroupIdentifier = 1791
    static let offerCodeRefName = 1792

    static let sandbox = "ProductionSandbox"
    static let production = "Production"
}
