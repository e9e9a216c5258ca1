import AppleVocabulary
import AppleWire
import Foundation
import Hummingbird
import IAPCore
import MockStore

/// Apple's servers on the wire: `verifyReceipt` (production and sandbox) and the App Store Server API.
struct AppleEndpoints: Sendable {
    let parties: PartyThread
    let served: Confined<ServedParties>
    let signer: AppleSigner
    let keyring: APIKeyring

    static let maxReceiptBytes = 1 << 20

    func add(to router: Router<BasicRequestContext>) {
        let faults = WireFaultMiddleware<BasicRequestContext>(parties: parties, served: served)
        let verify = router.group().add(middleware: faults)
        for (path, environment) in [("verifyReceipt", AppleEnvironment.production), ("sandbox/verifyReceipt", .sandbox)] {
            verify.on(RouterPath(path), method: .post) { request, _ in await verifyReceipt(request, at: environment) }
            // Apple answers anything but a POST with 21000.
            router.on(RouterPath(path), method: .get) { _, _ in Wire.json(VerifyReceiptResponse(status: 21000)) }
        }
        // The bearer token is checked before the backend's faults, which each route fires as it visits the parties.
        let serverAPI = router.group("inApps").add(middleware: APIAuthMiddleware(keyring: keyring))
        serverAPI.get("v1/transactions/:id") { _, context in
            await api(id: context.parameters.get("id")) { id, parties, now in
                guard let transaction = try parties.records.transaction(id) else { throw APIErrorBody.transactionIdNotFound }
                return { try await TransactionInfoResponse(signedTransactionInfo: signer.sign(JWSTransaction(transaction, signedAt: now))) }
            }
        }
        // Version 1, deprecated, is still what Apple's libraries ask for by default: version 2 less finished consumables.
        for (version, finishedConsumables) in [("v1", false), ("v2", true)] {
            serverAPI.get(RouterPath("\(version)/history/:id")) { request, context in
                await history(request, id: context.parameters.get("id"), finishedConsumables: finishedConsumables)
            }
        }
        serverAPI.get("v1/subscriptions/:id") { request, context in
            // `status=1&status=2`: only the chains in one of those states; none given, all of them.
            let wanted = request.uri.queryParameters.getAll("status").map { Int(String($0)).flatMap { (1...5).contains($0) ? $0 : nil } }
            return await api(id: context.parameters.get("id")) { id, parties, now in
                guard !wanted.contains(nil) else { throw APIErrorBody.invalidStatus }
                guard let chains = try parties.records.subscriptions(of: id) else { throw APIErrorBody.transactionIdNotFound }
                let shown = wanted.isEmpty ? chains : chains.filter { wanted.contains($0.state.appleStatus) }
                return {
                    var groups: [String: [StatusResponse.LastTransactionsItem]] = [:]
                    for chain in shown {
                        let item = StatusResponse.LastTransactionsItem(
                            status: chain.state.appleStatus, originalTransactionId: chain.renewal.original_transaction_id,
                            signedTransactionInfo: try await signer.sign(JWSTransaction(chain.latest, signedAt: now)),
                            signedRenewalInfo: try await signer.sign(JWSRenewalInfo(chain, signedAt: now)))
                        groups[chain.latest.entry.subscription_group_identifier ?? "", default: []].append(item)
                    }
                    return StatusResponse(environment: AppleSandbox.environment, bundleId: Receipt.bundleId,
                                          data: groups.sorted { $0.key < $1.key }.map { .init(subscriptionGroupIdentifier: $0.key, lastTransactions: $0.value) })
                }
            }
        }
        serverAPI.get("v2/refund/lookup/:id") { request, context in
            let revision = request.uri.queryParameters.get("revision").map { String($0) }
            return await api(id: context.parameters.get("id")) { id, parties, now in
                guard let refunds = try parties.records.refunds(of: id) else { throw APIErrorBody.transactionIdNotFound }
                let page = try Page(refunds, revision: revision)
                return {
                    RefundHistoryResponse(signedTransactions: try await signer.sign(page.items, at: now), revision: page.revision,
                                          hasMore: page.hasMore)
                }
            }
        }
        serverAPI.get("v1/transactions/appTransactions/:id") { _, context in
            await api(id: context.parameters.get("id")) { id, parties, now in
                let download: AppleAppTransaction
                if let transaction = try parties.records.transaction(id) {
                    guard let found = try parties.records.appTransaction(of: transaction) else { throw APIErrorBody.appTransactionDoesNotExist }
                    download = found
                } else {
                    // Apple takes the download's own id too.
                    guard let account = try parties.records.account(of: id) else { throw APIErrorBody.transactionIdNotFound }
                    download = try parties.records.appTransaction(account: account)
                }
                return { AppTransactionInfoResponse(signedAppTransactionInfo: try await signer.sign(JWSAppTransaction(download, signedAt: now))) }
            }
        }
        // Support asks the customer for the order id on Apple's e-mail receipt. Apple answers an order id it never gave,
        // malformed or not, with status 1 rather than an error.
        serverAPI.get("v1/lookup/:orderId") { _, context in
            let orderId = context.parameters.get("orderId") ?? ""
            return await api(id: nil) { _, parties, now in
                let charges = try parties.records.order(orderId)
                return {
                    charges.isEmpty ? OrderLookupResponse(status: 1, signedTransactions: nil)
                        : OrderLookupResponse(status: 0, signedTransactions: try await signer.sign(charges[...], at: now))
                }
            }
        }
        addChanges(to: serverAPI)
        addNotifications(to: serverAPI)
        addExtensions(to: serverAPI)
    }

    private func verifyReceipt(_ request: Request, at environment: AppleEnvironment) async -> Response {
        var request = request
        let body: Data
        do {
            body = Data(buffer: try await request.collectBody(upTo: Self.maxReceiptBytes))
        } catch {
            return Wire.json(VerifyReceiptResponse(status: 21000))
        }
        let response: VerifyReceiptResponse = await parties.perform { [served] answer in
            let parties = served.value
            let forced = parties.faults.fire(.verifyStatus).flatMap(Int.init).map { VerifyReceiptResponse(status: $0) }
            answer(forced ?? parties.verifyReceipt(body, at: environment))
        }
        return Wire.json(response, summary: "status \(response.status)")
    }

    /// Get Transaction History: the charges of the customer who paid for `id`, filtered, sorted and paged as Apple does.
    private func history(_ request: Request, id: String?, finishedConsumables: Bool) async -> Response {
        let query = request.uri.queryParameters
        return await api(id: id) { id, parties, now in
            let descending: Bool
            switch (query.get("sort").map { String($0) }) {
            case nil, "ASCENDING": descending = false
            case "DESCENDING": descending = true
            default: throw APIErrorBody.invalidSort
            }
            let filter = try HistoryFilter(query)
            guard let charges = try parties.records.history(of: id, finishedConsumables: finishedConsumables)?.filter(filter.admits) else {
                throw APIErrorBody.transactionIdNotFound
            }
            let page = try HistoryPage(charges, descending: descending, revision: query.get("revision").map { String($0) })
            return {
                HistoryResponse(revision: page.revision, hasMore: page.hasMore, bundleId: Receipt.bundleId,
                                environment: AppleSandbox.environment, signedTransactions: try await signer.sign(page.items, at: now))
            }
        }
    }

    /// One Server API call, its bearer token passed (`APIAuthMiddleware`): the backend's faults fired, then `lookup`, on
    /// the parties' thread, whose answer is signed off it. An id Apple would refuse unread is answered with `malformed`.
    func api<Body: Encodable & Sendable>(
        id: String?, malformed: APIErrorBody = .invalidTransactionId,
        lookup: @escaping (String, ServedParties, Date) throws -> @Sendable () async throws -> Body
    ) async -> Response {
        let found: Found<Body>
        switch await parties.afterFaults(of: served, { Self.malformed(id) ? .failure(malformed) : Self.find(id, lookup, in: $0) }) {
        case let .success(answer): found = answer
        case let .failure(stop): return await Wire.respond(to: stop)
        }
        switch found {
        case let .success(sign):
            do {
                return Wire.json(try await sign.value(), summary: "signed")
            } catch {
                return Wire.apiError(.generalInternal, summary: "cannot sign: \(error)")
            }
        case let .failure(error):
            return Wire.apiError(error)
        }
    }

    typealias Found<Body> = Result<Confined<@Sendable () async throws -> Body>, APIErrorBody>

    /// On the parties' thread.
    private static func find<Body>(
        _ id: String?, _ lookup: (String, ServedParties, Date) throws -> @Sendable () async throws -> Body, in parties: ServedParties
    ) -> Found<Body> {
        do {
            return .success(Confined(value: try lookup(id ?? "", parties, parties.now())))
        } catch let error as APIErrorBody {
            return .failure(error)
        } catch {
            return .failure(.generalInternalRetryable)
        }
    }
}

extension AppleSigner {
    /// Each transaction as a JWS, in order.
    nonisolated func sign(_ transactions: ArraySlice<AppleTransaction>, at now: Date) async throws -> [String] {
        var signed: [String] = []
        for transaction in transactions { signed.append(try await sign(JWSTransaction(transaction, signedAt: now))) }
        return signed
    }
}

extension AppleEndpoints {
    /// A transaction id Apple would refuse before looking: not a number of up to 20 digits.
    static func malformed(_ id: String?) -> Bool {
        guard let id else { return false }
        return id.isEmpty || id.count > 20 || !id.allSatisfy(\.isASCII) || !id.allSatisfy(\.isNumber)
    }
}

/// One page of up to 20, as Apple pages history: the revision, opaque as Apple's, says where the next page starts.
struct Page<Item: Sendable>: Sendable {
    let items: ArraySlice<Item>
    let revision: String
    let hasMore: Bool

    init(_ all: [Item], revision: String?) throws {
        let start: Int
        if let revision {
            guard let offset = PageToken(revision).map({ Int($0.after) }), offset >= 0, offset <= all.count else {
                throw APIErrorBody.invalidRevision
            }
            start = offset
        } else {
            start = 0
        }
        let end = min(start + 20, all.count)
        items = all[start..<end]
        self.revision = PageToken(after: Int64(end)).text
        hasMore = end < all.count
    }
}

/// The App Store Server API's bearer token, checked before anything else of a request.
struct APIAuthMiddleware<Context: RequestContext>: RouterMiddleware {
    let keyring: APIKeyring

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let refusal = await keyring.refusal(of: request.headers[.authorization]) {
            return Response(status: .unauthorized, headers: [Wire.summaryHeader: "401: \(refusal)"])
        }
        return try await next(request, context)
    }
}
