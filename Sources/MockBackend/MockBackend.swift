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

    public let faults: FaultBoard
    /// Which `verifyReceipt` the server calls first. Production answers 21007 for a sandbox receipt,
    /// and the server retries against sandbox, as Apple asks.
    public var verifyEnvironment = Environment.production
    /// How long a request waits before the client gives up on it (the `backend-timeout` fault).
    public static let timeout = 10.0
    /// "Still verifying" answers given so far, per transaction (the `verification-pending` fault).
    private var pendingAnswers: [String: Int] = [:]

    public enum Environment: String, Sendable { case production = "Production", sandbox = "Sandbox" }

    /// The backend's records, also where support acts (compensate, refund).
    public let database: BackendDatabase
    private let catalog: [String: Product]
    private let receiptKey: Data
    private let scheduler: Scheduler
    private let latency: Latency

    private let catalogOrder: [Product]
    /// The last receipt checked and what its check found: a backlog of orders is verified with one receipt, whose
    /// signature need not be checked once per order.
    private var lastCheck: (receipt: String, result: ReceiptCheck)?

    public init(database: BackendDatabase, catalog: [Product], receiptKey: Data, scheduler: Scheduler, latency: Latency = Latency(),
                faults: FaultBoard = FaultBoard()) {
        self.database = database
        self.faults = faults
        catalogOrder = catalog
        self.catalog = Dictionary(catalog.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.receiptKey = receiptKey
        self.scheduler = scheduler
        self.latency = latency
    }

    public func createOrder(user: String, productId: String, _ completion: @escaping (Result<String, BackendError>) -> Void) {
        answer(after: latency.order, completion) {
            // product-mismatch: the order goes down with the neighbouring product in the catalog.
            let named = faults.fire(.productMismatch) != nil ? neighbour(of: productId) : productId
            return try database.createOrder(user: user, productId: named, at: scheduler.now)
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
        var delay = delay + (faults.fire(.backendSlow).flatMap(Double.init) ?? 0)
        var result: Result<T, BackendError>
        if faults.fire(.backendDown) != nil {
            result = .failure(.unreachable)
        } else if let code = faults.fire(.backend5xx) {
            result = .failure(.http(Int(code) ?? 500))
        } else {
            do { result = .success(try work()) } catch { result = .failure(.http(500)) }
            if faults.fire(.backendTimeout) != nil {
                // The work is done; only the answer is lost on the way back.
                result = .failure(.timeout)
                delay = Self.timeout
            }
        }
        scheduler.after(delay) { completion(result) }
    }

    private func neighbour(of productId: String) -> String {
        guard let index = catalogOrder.firstIndex(where: { $0.id == productId }), catalogOrder.count > 1 else { return productId }
        return catalogOrder[(index + 1) % catalogOrder.count].id
    }

    /// The backend's own handling of one request: Apple's answer first, then orders, support marks and the ledger.
    private func verifyNow(_ request: VerifyRequest) throws -> VerifyResponse {
        if let polls = faults.fire(.verificationPending).flatMap(Int.init), pendingAnswers[request.transactionId, default: 0] < polls {
            pendingAnswers[request.transactionId, default: 0] += 1
            return VerifyResponse(status: ReceiptStatus.verificationPending)
        }
        // order-missing: the server cannot find the order the client names, and proceeds as if none was named (B4).
        let orderId = faults.fire(.orderMissing) != nil ? nil : request.orderId
        if let orderId, try database.isCompensated(orderId: orderId) {
            try database.recordVerdict(transactionId: request.transactionId, status: ReceiptStatus.compensatedBySupport, at: scheduler.now)
            return VerifyResponse(status: ReceiptStatus.compensatedBySupport)
        }
        // Apple's two endpoints read the same receipt: its signature is checked once, not once per endpoint.
        let checked = check(request.receipt)
        var apple = appleVerify(checked, environment: verifyEnvironment)
        if case .status(ReceiptStatus.sandboxReceiptInProduction) = apple {
            apple = appleVerify(checked, environment: .sandbox)
        } else if case .status(ReceiptStatus.productionReceiptInSandbox) = apple {
            apple = appleVerify(checked, environment: .production)
        }
        let receipt: Receipt
        switch apple {
        case let .status(code):
            if case .invalid = VerifyOutcome(.success(VerifyResponse(status: code))) {
                try database.recordVerdict(transactionId: request.transactionId, status: code, at: scheduler.now)
            }
            return VerifyResponse(status: code)
        case let .receipt(checked): receipt = checked
        }
        guard let entry = receipt.in_app.first(where: { $0.transaction_id == request.transactionId }) else {
            // Not in this receipt: the client should fetch a fresh one and try again.
            return VerifyResponse(status: ReceiptStatus.unavailable)
        }
        // B4: credit what was paid (the receipt's product), whatever product the order named. A restore (S7) names the
        // purchase it restores: the ledger keys on that original, so what is owned is credited once, however often restored.
        let coins = catalog[entry.product_id]?.coins ?? 0
        let (credit, new) = try database.credit(
            transactionId: entry.original_transaction_id, paidProduct: entry.product_id, orderId: orderId,
            requester: request.user, coins: coins, at: scheduler.now)
        return VerifyResponse(status: ReceiptStatus.ok, creditedUser: credit.user, newlyCredited: new)
    }

    private func check(_ receipt: String) -> ReceiptCheck {
        if let lastCheck, lastCheck.receipt == receipt { return lastCheck.result }
        let result = ReceiptVerifier.check(receipt, publicKey: receiptKey)
        lastCheck = (receipt, result)
        return result
    }

    private enum AppleAnswer {
        case status(Int)
        case receipt(Receipt)
    }

    /// Apple's `verifyReceipt` at one endpoint.
    private func appleVerify(_ checked: ReceiptCheck, environment: Environment) -> AppleAnswer {
        if let forced = faults.fire(.verifyStatus).flatMap(Int.init) { return .status(forced) }
        switch checked {
        case .malformed: return .status(ReceiptStatus.malformed)
        case .notAuthenticated: return .status(ReceiptStatus.notAuthenticated)
        case let .valid(receipt):
            guard receipt.bundle_id == Receipt.bundleId else { return .status(ReceiptStatus.notAuthenticated) }
            if receipt.environment != environment.rawValue {
                return .status(environment == .production ? ReceiptStatus.sandboxReceiptInProduction : ReceiptStatus.productionReceiptInSandbox)
            }
            return .receipt(receipt)
        }
    }
}
