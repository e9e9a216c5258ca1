import AppleVocabulary
import AppleWire
import Foundation
import Hummingbird
import MockStore

/// Extending subscriptions' renewal dates, one or every active subscriber of a product: the store moves each expiry,
/// so the app sees it and the renewal waits for it.
extension AppleEndpoints {
    func addExtensions(to serverAPI: RouterGroup<BasicRequestContext>) {
        serverAPI.put("v1/subscriptions/extend/:id") { request, context in
            let id = context.parameters.get("id")
            let body = await Self.body(of: request, as: ExtendRenewalDateRequest.self)
            return await api(id: id, malformed: .invalidOriginalTransactionId) { original, parties, now in
                let body = try body.get()
                let (days, requestIdentifier) = try Self.checked(body.extendByDays, body.extendReasonCode, body.requestIdentifier)
                guard let transaction = try parties.records.transaction(original) else { throw APIErrorBody.originalTransactionIdNotFound }
                guard transaction.entry.original_transaction_id == original, !transaction.isRestore else {
                    throw APIErrorBody.transactionIdIsNotOriginal
                }
                let outcome = try parties.store.extendRenewal(originalTransactionId: original, days: days, requestIdentifier: requestIdentifier)
                switch outcome {
                case let .extended(expires, webOrder):
                    let answer = ExtendRenewalDateResponse(originalTransactionId: original, webOrderLineItemId: webOrder, success: true,
                                                           effectiveDate: AppleDate.milliseconds(expires))
                    return { answer }
                case .notFound, .ineligible: throw APIErrorBody.subscriptionExtensionIneligible
                case .tooMany: throw APIErrorBody.subscriptionMaxExtension
                }
            }
        }
        serverAPI.post("v1/subscriptions/extend/mass") { request, _ in
            let body = await Self.body(of: request, as: MassExtendRenewalDateRequest.self)
            return await api(id: nil) { _, parties, _ in
                let body = try body.get()
                let (days, requestIdentifier) = try Self.checked(body.extendByDays, body.extendReasonCode, body.requestIdentifier)
                guard let productId = body.productId, let product = parties.catalog.first(where: { $0.id == productId && $0.kind == .subscription })
                else { throw APIErrorBody.invalidProductId }
                let storefronts = body.storefrontCountryCodes ?? []
                guard storefronts.allSatisfy({ $0.count == 3 && $0.allSatisfy { $0.isASCII && $0.isUppercase } }) else {
                    throw APIErrorBody.invalidStorefrontCountryCode
                }
                // Every subscriber bought in the storefront of the catalog's currency: a list without it extends no one.
                let reached = storefronts.isEmpty || storefronts.contains(Storefront(of: product).code)
                _ = try parties.store.extendAll(productId: productId, days: days, requestIdentifier: requestIdentifier, reached: reached,
                                             storefronts: storefronts)
                let answer = MassExtendRenewalDateResponse(requestIdentifier: requestIdentifier)
                return { answer }
            }
        }
        serverAPI.get("v1/subscriptions/extend/mass/:productId/:requestIdentifier") { _, context in
            let productId = context.parameters.get("productId") ?? ""
            let requestIdentifier = context.parameters.get("requestIdentifier") ?? ""
            return await api(id: nil) { _, parties, _ in
                guard let done = try parties.store.database.massExtension(productId: productId, requestIdentifier: requestIdentifier) else {
                    throw APIErrorBody.statusRequestNotFound
                }
                let answer = MassExtendRenewalDateStatusResponse(requestIdentifier: requestIdentifier, complete: true,
                                                                 completeDate: AppleDate.milliseconds(done.completedAt),
                                                                 succeededCount: done.succeeded, failedCount: done.failed)
                return { answer }
            }
        }
    }

    /// An extension's days, reason and request identifier as Apple checks them: 1 to 90 days, a reason from 0 to 3, an
    /// identifier of 1 to 128 characters.
    static func checked(_ days: Int?, _ reason: Int?, _ requestIdentifier: String?) throws -> (days: Int, requestIdentifier: String) {
        guard let days, (1...90).contains(days) else { throw APIErrorBody.invalidExtendByDays }
        guard let reason, (0...3).contains(reason) else { throw APIErrorBody.invalidExtendReasonCode }
        guard let requestIdentifier, (1...128).contains(requestIdentifier.count) else { throw APIErrorBody.invalidRequestIdentifier }
        return (days, requestIdentifier)
    }
}
