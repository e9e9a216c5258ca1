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
/// route answers. The Server API's routes fire them themselves, in the same visit to the parties as their work.
struct WireFaultMiddleware<Context: RequestContext>: RouterMiddleware {
    let parties: PartyThread
    let served: Confined<ServedParties>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if case let .failure(stop) = await parties.afterFaults(of: served, { _ in }) { return await Wire.respond(to: stop) }
        return try await next(request, context)
    }
}

extension PartyThread {
    /// The backend's faults for one request fired on the parties' thread, then `work` there in the same visit, unless a
    /// fault stops the request; `backend-slow` holds `work` back by its delay.
    func afterFaults<T: Sendable>(of served: Confined<ServedParties>, _ work: @escaping (ServedParties) -> T) async -> Result<T, WireFault> {
        let (stop, delay, done): (WireFault?, Double, T?) = await perform { answer in
            let (stop, delay) = Self.fire(served.value.faults)
            answer((stop, delay, stop == nil && delay == 0 ? work(served.value) : nil))
        }
        if let stop { return .failure(stop) }
        if let done { return .success(done) }
        try? await Task.sleep(for: .seconds(delay))
        return .success(await perform { answer in answer(work(served.value)) })
    }

    /// The backend's faults for one request: what stops it and how long it is held back.
    private static func fire(_ faults: FaultBoard) -> (stop: WireFault?, delay: Double) {
        let delay = faults.fire(.backendSlow).flatMap(Double.init) ?? 0
        if faults.fire(.backendDown) != nil { return (.down, delay) }
        if let code = faults.fire(.backend5xx) { return (.http(Int(code) ?? 500), delay) }
        if faults.fire(.backendTimeout) != nil { return (.timeout, delay) }
        return (nil, delay)
    }
}
