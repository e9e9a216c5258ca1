import AppleReceiptFormat
import AppleWire
import Foundation
import Hummingbird
import Logging
import StoreSigning

/// Apple's servers (and, when asked, the app's backend) over HTTP on 127.0.0.1, acting on the parties through their
/// thread.
public struct StoreServer: Sendable {
    public let log = WireLog()
    private let responder: RouterResponder<BasicRequestContext>

    /// Builds the routes; call it on the parties' thread, which `served` belongs to.
    public init(served: ServedParties, parties: PartyThread) throws {
        let signer = try AppleSigner(StoreCertificates.of(served.store.database))
        let database = Confined(value: served.store.database)
        let keyring = APIKeyring { keyId in
            await parties.perform { answer in
                answer((try? APIKey.kept(keyId, in: database.value)).flatMap { $0 }.map { APIKeyring.Kept(issuerId: $0.issuerId, publicKeyPEM: $0.publicKeyPEM) })
            }
        }
        let router = Router()
        router.add(middleware: NoRouteMiddleware())
        router.add(middleware: WireLogMiddleware(log: log))
        AppleEndpoints(parties: parties, served: Confined(value: served), signer: signer, keyring: keyring).add(to: router)
        BackendEndpoints(parties: parties, served: Confined(value: served)).add(to: router)
        responder = router.buildResponder()
    }

    /// Serves on 127.0.0.1:`port` (0: any free port) until the task is cancelled; `onRunning` is told the port.
    public func run(port: Int, onRunning: @escaping @Sendable (Int) -> Void) async throws {
        var logger = Logger(label: "iapsim.serve")
        logger.logLevel = .critical
        let app = Application(
            responder: responder,
            server: .http1(configuration: .init(idleTimeout: .seconds(30))),
            configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "iapsim"),
            onServerRunning: { channel in onRunning(channel.localAddress?.port ?? port) },
            logger: logger)
        try await app.run()
    }
}

/// Notes every exchange, with how long it took, for the inspector.
struct WireLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let log: WireLog

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response: Response
        do {
            response = try await next(request, context)
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            log.record(.init(method: request.method.rawValue, path: request.uri.path, status: status, summary: "\(status)",
                             milliseconds: Elapsed.milliseconds(since: start)))
            throw error
        }
        log.record(.init(method: request.method.rawValue, path: request.uri.path, status: response.status.code,
                         summary: response.headers[Wire.summaryHeader] ?? "", milliseconds: Elapsed.milliseconds(since: start)))
        return response
    }
}

/// A request no route serves (a path mistyped, a method no route takes) is answered with one line naming what iapsim
/// serves, not an empty 404.
struct NoRouteMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            // A path as sent (still percent-encoded, so one line), cut where a long one would bury the routes.
            let path = request.uri.path.count > 200 ? request.uri.path.prefix(200) + "…" : request.uri.path
            let line = "iapsim: no route for \(request.method.rawValue) \(path); iapsim serves /verifyReceipt, /sandbox/verifyReceipt, "
                + "/inApps/v1/… and /inApps/v2/… (the App Store Server API, with a bearer token: iapsim keys) and /backend/v1/… "
                + "(docs/backend-contract.yaml)\n"
            return Response(status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: line)))
        }
    }
}
