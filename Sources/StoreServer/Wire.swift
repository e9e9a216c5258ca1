import Foundation
import Hummingbird
import HTTPTypes

/// Answers as Apple's servers give them.
enum Wire {
    /// A few words on what iapsim understood of the request, for the inspector and `curl -i`.
    static let summaryHeader = HTTPField.Name("X-Iapsim-Summary")!

    /// JSON with exactly `application/json`: Apple's library compares the content type as a whole string.
    static func json(_ body: some Encodable, status: HTTPResponse.Status = .ok, summary: String? = nil) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        guard let data = try? encoder.encode(body) else { return Response(status: .internalServerError) }
        var headers: HTTPFields = [.contentType: "application/json"]
        if let summary { headers[summaryHeader] = summary }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func apiError(_ error: APIErrorBody, summary: String? = nil) -> Response {
        json(error, status: HTTPResponse.Status(code: error.status), summary: summary ?? "\(error.errorCode)")
    }

    /// What a backend fault that stops a request answers on the wire.
    static func respond(to fault: WireFault) async -> Response {
        switch fault {
        case .down:
            return Response(status: .serviceUnavailable, headers: [summaryHeader: "backend-down"])
        case let .http(code):
            return Response(status: HTTPResponse.Status(code: code), headers: [summaryHeader: "backend-5xx"])
        case .timeout:
            try? await Task.sleep(for: .seconds(timeoutSeconds))
            return Response(status: .gatewayTimeout, headers: [summaryHeader: "backend-timeout"])
        }
    }

    /// Longer than any client waits (the app's own gives up after 10 s).
    static let timeoutSeconds = 30.0
}
