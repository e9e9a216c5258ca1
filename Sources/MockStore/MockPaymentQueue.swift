import Foundation
import IAPCore

/// StoreKit and Apple's servers in one: a payment queue whose transactions live in the store's database.
public final class MockPaymentQueue: PaymentQueue {
    /// How long Apple takes to answer, on the app's clock.
    public struct Latency: Sendable {
        public var products: Double
        public var payment: Double

        public init(products: Double = 0.3, payment: Double = 1.0) {
            self.products = products
            self.payment = payment
        }
    }

    public let faults: FaultBoard
    /// Where a failure of the store's own database is reported.
    public var onError: (String) -> Void = { _ in }

    private let database: StoreDatabase
    private let catalog: [Product]
    private let scheduler: Scheduler
    private let latency: Latency
    private let signer: ReceiptSigner
    private var observer: (([StoreTransaction]) -> Void)?

    public init(database: StoreDatabase, catalog: [Product], scheduler: Scheduler, latency: Latency = Latency(),
                faults: FaultBoard = FaultBoard()) throws {
        self.database = database
        self.faults = faults
        self.catalog = catalog
        self.scheduler = scheduler
        self.latency = latency
        let stored = try database.value("signingKey")
        signer = try ReceiptSigner(rawKey: stored)
        if stored == nil { try database.setValue(signer.key.rawRepresentation, for: "signingKey") }
    }

    /// What the backend needs to check this store's receipts.
    public var receiptPublicKey: Data { signer.publicKey }

    public var canMakePayments: Bool { !faults.isArmed(.paymentsDisabled) }

    /// How long a parent takes to answer an Ask to Buy request.
    public static let askToBuyDecision = 10.0
    /// How long after the "failed" callback of an interrupted purchase the "purchased" one comes.
    public static let interruptionResolved = 2.0

    public func add(observer: @escaping ([StoreTransaction]) -> Void) {
        self.observer = observer
        guard let unfinished = attempt({ try database.unfinished() }), !unfinished.isEmpty else { return }
        observer(unfinished)
        // A payment interrupted by the kill still goes through on Apple's side.
        for transaction in unfinished where transaction.state == .purchasing {
            scheduler.after(latency.payment) { [weak self] in self?.complete(transaction.id) }
        }
        // The parent still decides, whether or not the app was running.
        for transaction in unfinished where transaction.state == .deferred {
            let approve = faults.armed.value(.askToBuy) != "decline"
            scheduler.after(Self.askToBuyDecision) { [weak self] in self?.decide(transaction.id, approve: approve) }
        }
    }

    public func requestProducts(_ completion: @escaping (Result<[Product], StoreRequestError>) -> Void) {
        let delay = latency.products + (faults.fire(.productsSlow).flatMap(Double.init) ?? 0)
        let result: Result<[Product], StoreRequestError> =
            faults.fire(.productsFail) != nil ? .failure(.failed) : .success(faults.fire(.productsEmpty) != nil ? [] : catalog)
        scheduler.after(delay) { completion(result) }
    }

    public func add(_ payment: Payment) {
        guard catalog.contains(where: { $0.id == payment.productId }) else {
            record(payment, state: .failed, error: .unknownProduct)
            return
        }
        if isBlocked(payment.productId) {
            // StoreKit will not sell a product again while its last transaction is unfinished.
            record(payment, state: .failed, error: .alreadyPending)
            return
        }
        guard let transaction = record(payment, state: .purchasing) else { return }
        let id = transaction.id
        if faults.fire(.userCancels) != nil {
            scheduler.after(latency.payment) { [weak self] in self?.resolve(id, to: .failed, error: .cancelled) }
        } else if let decision = faults.fire(.askToBuy) {
            scheduler.after(latency.payment) { [weak self] in self?.resolve(id, to: .deferred, error: nil) }
            scheduler.after(latency.payment + Self.askToBuyDecision) { [weak self] in self?.decide(id, approve: decision != "decline") }
        } else if faults.fire(.failedThenPurchased) != nil {
            scheduler.after(latency.payment) { [weak self] in self?.resolve(id, to: .failed, error: .interrupted) }
            scheduler.after(latency.payment + Self.interruptionResolved) { [weak self] in
                self?.record(payment, state: .purchased)
            }
        } else {
            scheduler.after(latency.payment) { [weak self] in self?.complete(id) }
        }
    }

    public func cancelPayment(transactionId: String) {
        resolve(transactionId, to: .failed, error: .cancelled)
    }

    public func finish(transactionId: String) -> Bool {
        guard faults.fire(.finishNotFound) == nil else { return false }
        return attempt { try database.finish(transactionId) } ?? false
    }

    public func appReceipt() -> String? {
        guard faults.fire(.receiptEmpty) == nil else { return nil }
        let nonConsumables = catalog.filter { !$0.kind.isConsumable }.map(\.id)
        guard let entries = attempt({ try database.receiptEntries(nonConsumables: nonConsumables) }), !entries.isEmpty else { return nil }
        let receipt = Receipt(bundle_id: Receipt.bundleId, environment: "Sandbox", in_app: entries.map {
            Receipt.Entry(transaction_id: $0.id, original_transaction_id: $0.id, product_id: $0.productId,
                          purchase_date_ms: String(Int64($0.date.timeIntervalSince1970 * 1000)), quantity: "1")
        })
        return attempt { try signer.sign(receipt) }
    }

    /// The queue as Apple holds it: unfinished transactions, oldest first, at most `limit` (the inspector, scripts).
    public func unfinished(limit: Int = -1) -> (transactions: [StoreTransaction], total: Int) {
        (attempt { try database.unfinished(limit: limit) } ?? [], attempt { try database.unfinishedCount() } ?? 0)
    }

    private func isBlocked(_ productId: String) -> Bool {
        attempt { try database.hasOpenTransaction(productId: productId) } ?? false
    }

    private func complete(_ id: String) {
        let succeeded = faults.fire(.purchaseFails) == nil
        resolve(id, to: succeeded ? .purchased : .failed, error: succeeded ? nil : .paymentFailed)
    }

    private func decide(_ id: String, approve: Bool) {
        resolve(id, to: approve ? .purchased : .failed, error: approve ? nil : .declined)
    }

    /// Moves a waiting transaction to its outcome, durably, then tells the observer.
    private func resolve(_ id: String, to state: TransactionState, error: StoreError?) {
        guard var transaction = attempt({ try database.transaction(id) }) ?? nil,
              transaction.state == .purchasing || transaction.state == .deferred else { return }
        guard attempt({ try database.update(id, state: state, error: error) }) != nil else { return }
        transaction.state = state
        transaction.error = error
        notify(transaction)
    }

    /// Tells the observer, unless a fault delays, drops or doubles the news of a payment.
    private func notify(_ transaction: StoreTransaction) {
        guard transaction.state == .purchased else {
            observer?([transaction])
            return
        }
        if faults.fire(.observerLost) != nil { return }  // still unfinished: the next launch re-delivers it
        let deliveries = faults.fire(.duplicateCallback) != nil ? 2 : 1
        let delay = faults.fire(.observerDelayed).flatMap(Double.init) ?? 0
        for _ in 0..<deliveries {
            if delay > 0 {
                scheduler.after(delay) { [weak self] in self?.observer?([transaction]) }
            } else {
                observer?([transaction])
            }
        }
    }

    @discardableResult
    private func record(_ payment: Payment, state: TransactionState, error: StoreError? = nil) -> StoreTransaction? {
        let name = faults.fire(.emptyApplicationUsername) != nil ? nil : payment.applicationUsername
        guard let transaction = attempt({
            try database.insert(productId: payment.productId, state: state, applicationUsername: name, date: scheduler.now, error: error)
        }) else { return nil }
        notify(transaction)
        return transaction
    }

    private func attempt<T>(_ work: () throws -> T) -> T? {
        do {
            return try work()
        } catch {
            onError("\(error)")
            return nil
        }
    }
}
