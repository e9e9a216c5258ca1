import Foundation
import IAPCore
import MockStore

/// The app's own server with Apple's `verifyReceipt` behind it, answering after a network delay.
public final class MockBackend: Backend {
    public struct Latency: Sendable {
        public var order: Double
        public var verify: Double

        public init(order: Double = 0.2, verify: Double = 1.0) {
            self.order = order
            self.verify = verify
        }
    }

    public var faults: Set<Fault> = []

    private let database: BackendDatabase
    private let catalog: [String: Product]
    private let receiptKey: Data
    private let scheduler: Scheduler
    private let latency: Latency

    public init(database: BackendDatabase, catalog: [Product], receiptKey: Data, scheduler: Scheduler, latency: Latency = Latency()) {
        self.database = database
        self.catalog = Dictionary(catalog.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.receiptKey = receiptKey
        self.scheduler = scheduler
        self.latency = latency
    }

    public func createOrder(user: String, productId: String, _ completion: @escaping (Result<String, BackendError>) -> Void) {
        answer(after: latency.order, completion) {
            try database.createOrder(user: user, productId: productId, at: scheduler.now)
        }
    }

    public func verify(_ request: VerifyRequest, _ completion: @escaping (Result<VerifyResponse, BackendError>) -> Void) {
        answer(after: latency.verify, completion) { try verifyNow(request) }
    }

    public func account(user: String, _ completion: @escaping (Result<Account, BackendError>) -> Void) {
        let consumables = Set(catalog.values.filter { $0.kind.isConsumable }.map(\.id))
        answer(after: 0, completion) { try database.account(user: user, consumables: consumables) }
    }

    /// The server's work happens when the request arrives; the answer travels back later,
    /// so a kill in between leaves a credit the client has not heard of (the replay must credit nothing more).
    private func answer<T>(after delay: Double, _ completion: @escaping (Result<T, BackendError>) -> Void, work: () throws -> T) {
        let result: Result<T, BackendError>
        if faults.contains(.backendDown) {
            result = .failure(.unreachable)
        } else {
            do { result = .success(try work()) } catch { result = .failure(.http(500)) }
        }
        scheduler.after(delay) { completion(result) }
    }

    private func verifyNow(_ request: VerifyRequest) throws -> VerifyResponse {
        let receipt: Receipt
        switch ReceiptVerifier.check(request.receipt, publicKey: receiptKey) {
        case .malformed: return VerifyResponse(status: ReceiptStatus.malformed)
        case .notAuthenticated: return VerifyResponse(status: ReceiptStatus.notAuthenticated)
        case let .valid(checked): receipt = checked
        }
        guard receipt.bundle_id == Receipt.bundleId else { return VerifyResponse(status: ReceiptStatus.notAuthenticated) }
        guard let entry = receipt.in_app.first(where: { $0.transaction_id == request.transactionId }) else {
            // Not in this receipt: the client should fetch a fresh one and try again.
            return VerifyResponse(status: ReceiptStatus.unavailable)
        }
        let coins = catalog[entry.product_id]?.coins ?? 0
        let (credit, new) = try database.credit(
            transactionId: entry.transaction_id, paidProduct: entry.product_id, orderId: request.orderId,
            requester: request.user, coins: coins, at: scheduler.now)
        return VerifyResponse(status: ReceiptStatus.ok, creditedUser: credit.user, newlyCredited: new)
    }
}
