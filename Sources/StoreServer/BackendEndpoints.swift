import Foundation
import Hummingbird
import IAPCore

/// The app's backend on the wire: the contract in `docs/backend-contract.yaml`, answered by the built-in backend, so
/// that a team's own implementation and iapsim's can stand in for each other.
struct BackendEndpoints: Sendable {
    let parties: PartyThread
    let served: Confined<ServedParties>

    static let maxBodyBytes = 64 << 10

    func add(to router: Router<BasicRequestContext>) {
        router.post("backend/v1/orders") { request, _ in
            await answer {
                let order = try await Self.body(OrderRequest.self, of: request)
                let user = try Self.user(order.user)
                guard !order.productId.isEmpty else { throw Self.badRequest("productId is empty") }
                guard let storeKit = StoreKitMode(rawValue: order.storekit ?? 1) else { throw Self.badRequest("storekit must be 1 or 2") }
                let placed: Result<OrderResponse, BackendError> = await parties.perform { [served] answer in
                    served.value.backend.createOrder(user: user, productId: order.productId, storeKit: storeKit) { answer($0) }
                }
                return (.created, try placed.get())
            }
        }
        router.post("backend/v1/verify") { request, _ in
            await answer {
                let asked = try await Self.body(VerifyRequest.self, of: request)
                let user = try Self.user(asked.user)
                guard !asked.transactionId.isEmpty, !asked.productId.isEmpty else { throw Self.badRequest("transactionId and productId must not be empty") }
                guard asked.restore != true || asked.signedTransaction?.isEmpty == false else {
                    throw Self.badRequest("a restore is an entitlement AppStore.sync() brought back: send its signedTransaction")
                }
                let verify = VerifyRequest(receipt: asked.receipt, transactionId: asked.transactionId, productId: asked.productId,
                                           orderId: asked.orderId, user: user, receiptHash: asked.receiptHash,
                                           claimsOwnership: asked.claimsOwnership, signedTransaction: asked.signedTransaction,
                                           restore: asked.restore)
                let verdict: Result<VerifyResponse, BackendError> = await parties.perform { [served] answer in
                    served.value.backend.verify(verify) { answer($0) }
                }
                return (.ok, try verdict.get())
            }
        }
        router.post("backend/v1/offers") { request, _ in
            await answer {
                let asked = try await Self.body(OfferRequest.self, of: request)
                let user = try Self.user(asked.user)
                guard !asked.productId.isEmpty, !asked.offerId.isEmpty else { throw Self.badRequest("productId and offerId must not be empty") }
                guard let storeKit = StoreKitMode(rawValue: asked.storekit ?? 1) else { throw Self.badRequest("storekit must be 1 or 2") }
                let signed: Result<OfferSignature, BackendError> = await parties.perform { [served] answer in
                    served.value.backend.signOffer(user: user, productId: asked.productId, offerId: asked.offerId,
                                                   applicationUsername: asked.applicationUsername, storeKit: storeKit) { answer($0) }
                }
                switch try signed.get() {
                case let .discount(discount): return (.ok, discount)
                case let .signed(offer): return (.ok, offer)
                }
            }
        }
        router.post("backend/v1/alarms") { request, _ in
            await answer {
                let asked = try await Self.body(AlarmsRequest.self, of: request)
                guard asked.alarms.count <= 100 else { throw Self.badRequest("at most 100 alarms at a time") }
                for alarm in asked.alarms {
                    guard !alarm.kind.isEmpty, !alarm.text.isEmpty, !alarm.device.isEmpty, !alarm.raisedAt.isEmpty else {
                        throw Self.badRequest("each alarm needs device, kind, text and raisedAt")
                    }
                    guard [alarm.device, alarm.kind, alarm.text, alarm.raisedAt, alarm.user ?? "", alarm.transactionId ?? ""]
                        .allSatisfy({ $0.count <= 2_000 }) else { throw Self.badRequest("an alarm's fields are at most 2,000 characters each") }
                }
                let taken: Result<Void, BackendError> = await parties.perform { [served] answer in
                    served.value.backend.report(asked.alarms) { answer($0) }
                }
                try taken.get()
                return (.ok, AlarmsResponse(received: asked.alarms.count))
            }
        }
        router.get("backend/v1/accounts/:user/appAccountToken") { _, context in
            await answer {
                let user = try Self.user(context.parameters.get("user") ?? "")
                let token: Result<UUID, BackendError> = await parties.perform { [served] answer in
                    served.value.backend.appAccountToken(user: user) { answer($0) }
                }
                return (.ok, AppAccountTokenResponse(appAccountToken: try token.get().uuidString.lowercased()))
            }
        }
        router.get("backend/v1/accounts/:user") { _, context in
            await answer {
                let user = try Self.user(context.parameters.get("user") ?? "")
                let account: Result<Account, BackendError> = await parties.perform { [served] answer in
                    served.value.backend.account(user: user) { answer($0) }
                }
                return (.ok, try account.get())
            }
        }
    }

    /// Runs one request; what it throws becomes the contract's error body with its status.
    private func answer(_ work: () async throws -> (HTTPResponse.Status, any Encodable)) async -> Response {
        do {
            let (status, body) = try await work()
            return Wire.json(body, status: status)
        } catch let error as ContractError {
            return Wire.json(error.body, status: error.status, summary: error.body.error)
        } catch let error as BackendError {
            let (status, name): (HTTPResponse.Status, String) = switch error {
            case .unreachable: (.serviceUnavailable, "unavailable")
            case .timeout: (.gatewayTimeout, "timeout")
            case let .http(code): (HTTPResponse.Status(code: code), code >= 500 ? "unavailable" : "badRequest")
            // The built-in backend is this process: it never answers outside the contract; a relay of one that did is a bad gateway.
            case .notTheContract, .tooLarge: (.badGateway, "unavailable")
            }
            return Wire.json(BackendErrorBody(error: name, message: "the backend could not answer (\(error)); ask again later"), status: status,
                             summary: name)
        } catch {
            return Wire.json(BackendErrorBody(error: "internal", message: "\(error)"), status: .internalServerError, summary: "internal")
        }
    }

    /// The request's JSON body, checked at the edge: its type, its size, its shape.
    static func body<T: Decodable>(_ type: T.Type, of request: Request) async throws -> T {
        guard request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true else {
            throw ContractError(.unsupportedMediaType, "notJSON", "send the body as JSON with Content-Type: application/json")
        }
        var request = request
        let bytes: ByteBuffer
        do {
            bytes = try await request.collectBody(upTo: maxBodyBytes)
        } catch {
            throw ContractError(.contentTooLarge, "tooLarge", "the body is over \(maxBodyBytes / 1024) KiB")
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer: bytes))
        } catch let DecodingError.keyNotFound(key, _) {
            throw badRequest("\(key.stringValue) is missing")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw badRequest("\(context.codingPath.map(\.stringValue).joined(separator: ".")) is not what the contract says")
        } catch {
            throw badRequest("the body is not JSON")
        }
    }

    static func user(_ raw: String) throws -> String {
        do { return try UserName.normalized(raw) } catch { throw badRequest("user: \(error)") }
    }

    static func badRequest(_ message: String) -> ContractError {
        ContractError(.badRequest, "badRequest", message)
    }
}

struct ContractError: Error {
    let status: HTTPResponse.Status
    let body: BackendErrorBody

    init(_ status: HTTPResponse.Status, _ error: String, _ message: String) {
        self.status = status
        body = BackendErrorBody(error: error, message: message)
    }
}
