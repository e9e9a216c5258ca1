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

    public var faults: Set<Fault> = []
    /// Where a failure of the store's own database is reported.
    public var onError: (String) -> Void = { _ in }

    private let database: StoreDatabase
    private let catalog: [Product]
    private let scheduler: Scheduler
    private let latency: Latency
    private let signer: ReceiptSigner
    private var observer: (([StoreTransaction]) -> Void)?

    public init(database: StoreDatabase, catalog: [Product], scheduler: Scheduler, latency: Latency = Latency()) throws {
        self.database = database
        self.catalog = catalog
        self.scheduler = scheduler
        self.latency = latency
        let stored = try database.value("signingKey")
        signer = try ReceiptSigner(rawKey: stored)
        if stored == nil { try database.setValue(signer.key.rawRepresentation, for: "signingKey") }
    }

    /// What the backend needs to check this store's receipts.
    public var receiptPublicKey: Data { signer.publicKey }

    public var canMakePayments: Bool { !faults.contains(.paymentsDisabled) }

    public func add(observer: @escaping ([StoreTransaction]) -> Void) {
        self.observer = observer
        guard let unfinished = attempt({ try database.unfinished() }), !unfinished.isEmpty else { return }
        observer(unfinished)
        // A payment interrupted by the kill still goes through on Apple's side.
        for transaction in unfinished where transaction.state == .purchasing {
            scheduler.after(latency.payment) { [weak self] in self?.complete(transaction.id) }
        }
    }

    public func requestProducts(_ completion: @escaping (Result<[Product], StoreRequestError>) -> Void) {
        let products = catalog
        scheduler.after(latency.products) { completion(.success(products)) }
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
        scheduler.after(latency.payment) { [weak self] in self?.complete(transaction.id) }
    }

    public func cancelPayment(transactionId: String) {
        resolve(transactionId, to: .failed, error: .cancelled)
    }

    public func finish(transactionId: String) -> Bool {
        guard !faults.contains(.finishNotFound) else { return false }
        return attempt { try database.finish(transactionId) } ?? false
    }

    public func appReceipt() -> String? {
        let consumables = Set(catalog.filter { $0.kind.isConsumable }.map(\.id))
        guard let entries = attempt({ try database.receiptEntries(consumables: consumables) }), !entries.isEmpty else { return nil }
        let receipt = Receipt(bundle_id: Receipt.bundleId, environment: "Sandbox", in_app: entries.map {
            Receipt.Entry(transaction_id: $0.id, original_transaction_id: $0.id, product_id: $0.productId,
                          purchase_date_ms: String(Int64($0.date.timeIntervalSince1970 * 1000)), quantity: "1")
        })
        return attempt { try signer.sign(receipt) }
    }

    private func isBlocked(_ productId: String) -> Bool {
        attempt { try database.hasOpenTransaction(productId: productId) } ?? false
    }

    private func complete(_ id: String) {
        let succeeded = !faults.contains(.purchaseFails)
        resolve(id, to: succeeded ? .purchased : .failed, error: succeeded ? nil : .paymentFailed)
    }

    /// Moves a purchasing transaction to its outcome, durably, then tells the observer.
    private func resolve(_ id: String, to state: TransactionState, error: StoreError?) {
        guard var transaction = attempt({ try database.transaction(id) }) ?? nil, transaction.state == .purchasing else { return }
        guard attempt({ try database.update(id, state: state, error: error) }) != nil else { return }
        transaction.state = state
        transaction.error = error
        observer?([transaction])
    }

    @discardableResult
    private func record(_ payment: Payment, state: TransactionState, error: StoreError? = nil) -> StoreTransaction? {
        let name = faults.contains(.emptyApplicationUsername) ? nil : payment.applicationUsername
        guard let transaction = attempt({
            try database.insert(productId: payment.productId, state: state, applicationUsername: name, date: scheduler.now, error: error)
        }) else { return nil }
        observer?([transaction])
        return transaction
    }

    private func attempt<T>(_ work: () throws -> T) -> T? {
        do {
            return try work()
        } catch {
            onError("store database: \(error)")
            return nil
        }
    }
}
