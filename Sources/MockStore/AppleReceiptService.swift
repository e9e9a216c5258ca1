import AppleVocabulary
import Foundation
import IAPCore

/// Apple's `verifyReceipt` service: checks the store's signature and the app's shared secret, then answers with the
/// receipt and, for the subscriptions in it, their latest transactions and what their renewal will do.
///
/// Every documented status, with Apple's meaning (`ReceiptStatus`). This service sends 21000 (a body it cannot read),
/// 21002, 21003, 21004, 21007, 21008 and 21009 (the store's database could not be read) by itself; 21001 is no
/// longer sent by Apple, and 21005, 21006, 21010 and 21100–21199 come only from the `verify-status` fault.
public final class AppleReceiptService: ReceiptVerifying {
    private let database: StoreDatabase
    private let signer: () -> (any StoreSigner)?
    private let sealed: () -> SealedReceipt?
    private let now: () -> Date
    /// The last receipt checked and what its check found: a backlog of orders is verified with one receipt, whose
    /// signature need not be checked once per order.
    private var lastCheck: (receipt: String, result: ReceiptCheck)?
    private var secret: String?

    /// `sealed`: the receipt the store sealed last, whose bytes are checked by comparing them.
    init(database: StoreDatabase, signer: @escaping () -> (any StoreSigner)?, sealed: @escaping () -> SealedReceipt?,
         now: @escaping () -> Date) {
        self.database = database
        self.signer = signer
        self.sealed = sealed
        self.now = now
    }

    public func sharedSecret() throws -> String {
        if let secret { return secret }
        let read = try database.sharedSecret()
        secret = read
        return read
    }

    /// A request's body as it arrives over HTTP: anything that is not Apple's JSON with a `receipt-data` is 21000.
    public func verify(body: Data, at environment: AppleEnvironment) -> VerifyReceiptResponse {
        guard let request = try? JSONDecoder().decode(VerifyReceiptRequest.self, from: body) else {
            return VerifyReceiptResponse(status: ReceiptStatus.badRequest, environment: environment.rawValue)
        }
        return verify(request, at: environment)
    }

    public func verify(_ request: VerifyReceiptRequest, at environment: AppleEnvironment) -> VerifyReceiptResponse {
        func status(_ status: Int) -> VerifyReceiptResponse { VerifyReceiptResponse(status: status, environment: environment.rawValue) }
        let receipt: Receipt
        guard let signer = signer() else { return status(ReceiptStatus.internalDataAccess) }
        switch check(request.receiptData, with: signer) {
        case nil: return status(ReceiptStatus.internalDataAccess)
        case .malformed: return status(ReceiptStatus.malformed)
        case .notAuthenticated: return status(ReceiptStatus.notAuthenticated)
        case let .valid(valid): receipt = valid
        }
        guard receipt.bundle_id == Receipt.bundleId else { return status(ReceiptStatus.notAuthenticated) }
        guard receipt.environment == environment.rawValue else {
            return status(environment == .production ? ReceiptStatus.sandboxReceiptInProduction : ReceiptStatus.productionReceiptInSandbox)
        }
        if let password = request.password {
            guard let secret = try? sharedSecret() else { return status(ReceiptStatus.internalDataAccess) }
            guard password == secret else { return status(ReceiptStatus.sharedSecretMismatch) }
        }
        var response = VerifyReceiptResponse(status: ReceiptStatus.ok, environment: environment.rawValue,
                                             receipt: AppleReceipt(receipt, at: environment, requested: now()))
        let subscriptions = receipt.in_app.filter { $0.subscription_group_identifier != nil }
        // Apple reports a receipt's subscriptions in full only to whoever knows the shared secret.
        guard !subscriptions.isEmpty, request.password != nil else { return response }
        let chains = Set(subscriptions.map(\.original_transaction_id))
        // Apple answers any receipt of a chain with the chain as it is now: the renewals, upgrades and refunds since the
        // receipt was made are in its latest transactions, not only in a newer receipt.
        guard let records = try? database.subscriptionRecords(originals: chains),
              let rows = try? database.chainEntries(originals: chains) else { return status(ReceiptStatus.internalDataAccess) }
        response.pending_renewal_info = records.map(PendingRenewalInfo.init)
        let groups = Dictionary(records.map { ($0.originalTransactionId, $0.group) }, uniquingKeysWith: { first, _ in first })
        let latest = rows.map { Receipt.Entry($0, group: groups[$0.transaction.originalId]).dated }
        let newestFirst = latest.reversed().sorted { (Int64($0.purchase_date_ms) ?? 0) > (Int64($1.purchase_date_ms) ?? 0) }
        if request.excludeOldTransactions == true {
            var seen = Set<String>()
            response.latest_receipt_info = newestFirst.filter { seen.insert($0.original_transaction_id).inserted }
        } else {
            response.latest_receipt_info = newestFirst
        }
        response.latest_receipt = request.receiptData
        return response
    }

    /// The receipt opened, with each entry's ownership as Apple's records say it (the signed payload has no such field;
    /// a transaction's is written once, with it, so it holds for as long as the receipt is checked again). Nil: the
    /// store's database could not be read.
    private func check(_ receipt: String, with signer: any StoreSigner) -> ReceiptCheck? {
        if let lastCheck, lastCheck.receipt == receipt { return lastCheck.result }
        // The receipt the store just sealed is known by its bytes, its payload read as it was sealed: a signature made a
        // moment ago need not be checked. Any other receipt, one byte changed included, is opened and its signature checked.
        var result = sealed().flatMap { $0.base64 == receipt ? ReceiptCheck.valid($0.contents) : nil } ?? signer.open(receipt)
        if case let .valid(opened) = result {
            guard let shared = try? database.familyShared(opened.in_app.map(\.transaction_id)) else { return nil }
            result = .valid(opened.owned(familyShared: shared))
        }
        lastCheck = (receipt, result)
        return result
    }
}
