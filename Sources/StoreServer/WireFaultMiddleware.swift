import Foundation
import Hummingbird
import IAPCore

/// A backend fault as a client on the wire meets it.
enum WireFault: Error, Sendable, Equatable {
    /// Answered 503 at once: nothing behind the port is working.
    case down
    case http(Int)
    /// No answer until well after a client would have given up.
    case timeout
}

/// The backend's faults on every request of the routes it wraps, fired once per request as they would be for a
/// request from the app: one that stops it is answered here, and `backend-slow` holds the request back before its
/// route answers.
struct WireFaultMiddleware<Context: RequestContext>: RouterMiddleware {
    let parties: PartyThread
    let served: Confined<ServedParties>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let (stop, delay): (WireFault?, Double) = await parties.perform { [served] answer in answer(Self.fire(served.value.faults)) }
        if let stop { return await Wire.respond(to: stop) }
        if delay > 0 { try? await Task.sleep(for: .seconds(delay)) }
        return try await next(request, context)
    }

    /// On the parties' thread: the backend's faults for one request, what stops it and how long it is held back.
    static func fire(_ faults: FaultBoard) -> (stop: WireFault?, delay: Double) {
        let delay = faults.fire(.backendSlow).flatMap(Double.init) ?? 0
        if faults.fire(.backendDown) != nil { return (.down, delay) }
        if let code = faults.fire(.backend5xx) { return (.http(Int(code) ?? 500), delay) }
        if faults.fire(.backendTimeout) != nil { return (.timeout, delay) }
        return (nil, delay)
    }
}
