import AppleVocabulary
import Foundation
import Hummingbird
import IAPCore
import MockStore

/// The App Store Server API's calls that change what Apple holds: each answers with no body, or with Apple's error for
/// the first thing it refuses, having changed nothing.
extension AppleEndpoints {
    func addChanges(to serverAPI: RouterGroup<BasicRequestContext>) {
        // The team's server says it delivered the content: the store finishes the transaction as the app's finish would,
        // so StoreKit no longer delivers it. A transaction finished already is finished: 200 again.
        serverAPI.post("v1/transactions/:id/finish") { _, context in
            await change(context.parameters.get("id"), summary: "finished") { id, parties in
                guard try parties.records.transaction(id) != nil else { throw APIErrorBody.transactionIdNotFound }
                _ = try parties.store.finishedByServer(transactionId: id)
            }
        }
        // A purchase made outside the app (an offer code redeemed in the App Store) carries no token: the team's server
        // names the customer's account on its original transaction, and every transaction of it carries the token.
        serverAPI.put("v1/transactions/:id/appAccountToken") { request, context in
            // Its one field has its own error, whatever is wrong with it (left out, not a string, not a UUID).
            let body = await Self.body(of: request, as: UpdateAppAccountTokenRequest.self,
                                       fieldErrors: ["appAccountToken": .invalidAppAccountTokenUUID])
            return await change(context.parameters.get("id"), malformed: .invalidOriginalTransactionId, summary: "token set") { id, parties in
                guard let transaction = try parties.records.transaction(id) else { throw APIErrorBody.transactionIdNotFound }
                guard transaction.entry.original_transaction_id == id, !transaction.isRestore else { throw APIErrorBody.transactionIdIsNotOriginal }
                guard transaction.entry.in_app_ownership_type != "FAMILY_SHARED" else { throw APIErrorBody.familyTransactionNotSupported }
                guard let token = UUID(uuidString: try body.get().appAccountToken) else { throw APIErrorBody.invalidAppAccountTokenUUID }
                try parties.store.database.setAppAccountToken(token, original: id)
            }
        }
        // The customer asked Apple for a refund, and the team's server says what it knows: Apple keeps the latest. Version 1
        // took consumables and auto-renewable subscriptions only.
        serverAPI.put("v1/transactions/consumption/:id") { request, context in
            let body = await Self.body(of: request, as: ConsumptionRequestV1.self)
            return await consumption(body, of: context.parameters.get("id"), refused: { $0.refusedField }) { product in
                product?.kind == .consumable || product?.kind == .subscription
            }
        }
        serverAPI.put("v2/transactions/consumption/:id") { request, context in
            let body = await Self.body(of: request, as: ConsumptionRequest.self)
            return await consumption(body, of: context.parameters.get("id"), refused: { $0.refusedField }) { _ in true }
        }
    }

    /// One Server API call that changes the store: the backend's faults fired, then `work`, on the parties' thread,
    /// answered with `status` and no body, or with the Apple error it threw, having changed nothing.
    private func change(
        _ id: String?, malformed: APIErrorBody = .invalidTransactionId, status: HTTPResponse.Status = .ok, summary: String,
        _ work: @escaping (String, ServedParties) throws -> Void
    ) async -> Response {
        let refusal: APIErrorBody?
        switch await parties.afterFaults(of: served, { parties -> APIErrorBody? in
            if Self.malformed(id) { return malformed }
            do {
                try work(id ?? "", parties)
                return nil
            } catch let error as APIErrorBody {
                return error
            } catch {
                return .generalInternalRetryable
            }
        }) {
        case let .success(answer): refusal = answer
        case let .failure(stop): return await Wire.respond(to: stop)
        }
        return refusal.map { Wire.apiError($0) } ?? Response(status: status, headers: [Wire.summaryHeader: summary])
    }

    /// Send Consumption Information, either version: 202 and kept, or Apple's error for the first field it refuses.
    private func consumption<Body: Codable & Sendable>(
        _ body: Result<Body, APIErrorBody>, of id: String?, refused: @escaping @Sendable (Body) -> String?,
        takes: @escaping @Sendable (Product?) -> Bool
    ) async -> Response {
        await change(id, status: .accepted, summary: "consumption kept") { id, parties in
            let body = try body.get()
            if let field = refused(body) { throw APIErrorBody.refusing(field) }
            guard let transaction = try parties.records.transaction(id) else { throw APIErrorBody.transactionIdNotFound }
            guard takes(transaction.product) else { throw APIErrorBody.invalidTransactionTypeNotSupported }
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            try parties.store.database.setConsumption(String(decoding: try encoder.encode(body), as: UTF8.self), of: id)
        }
    }

    /// A request's JSON body as Apple's type, or Apple's error for the field it could not read: the endpoint's own for a
    /// field in `fieldErrors`, else the one the field has across the API.
    static func body<Body: Decodable>(of request: Request, as type: Body.Type, fieldErrors: [String: APIErrorBody] = [:]) async
        -> Result<Body, APIErrorBody> {
        var request = request
        guard let buffer = try? await request.collectBody(upTo: 1 << 16) else { return .failure(.generalBadRequest) }
        let refusing = { (field: String?) in field.flatMap { fieldErrors[$0] } ?? .refusing(field) }
        do {
            return .success(try JSONDecoder().decode(type, from: Data(buffer: buffer)))
        } catch let DecodingError.keyNotFound(key, _) {
            return .failure(refusing(key.stringValue))
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.dataCorrupted(context), let DecodingError.valueNotFound(_, context) {
            return .failure(refusing(context.codingPath.first?.stringValue))
        } catch {
            return .failure(.generalBadRequest)
        }
    }
}
