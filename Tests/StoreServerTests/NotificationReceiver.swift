import Foundation
import Hummingbird
import Logging
import StoreServer

/// A team's server in miniature, on 127.0.0.1 at a free port: it keeps every body POSTed to /notifications and
/// answers with the next status it was given (200 once they are used up).
final class NotificationReceiver: @unchecked Sendable {
    struct Received: Sendable {
        let signedPayload: String
        let contentType: String?
    }

    private let lock = NSLock()
    private var kept: [Received] = []
    private var answers: [Int]
    private var task: Task<Void, Error>?
    private(set) var port = 0

    init(answers: [Int] = []) {
        self.answers = answers
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)/notifications")! }

    var received: [Received] {
        lock.lock()
        defer { lock.unlock() }
        return kept
    }

    func start() async throws {
        let router = Router()
        router.post("notifications") { [self] request, _ -> Response in
            let buffer = try await request.body.collect(upTo: 1 << 20)
            let body = try JSONDecoder().decode(SignedNotificationBody.self, from: Data(buffer: buffer))
            return Response(status: HTTPResponse.Status(code: take(Received(signedPayload: body.signedPayload,
                                                                            contentType: request.headers[.contentType]))))
        }
        var logger = Logger(label: "test.receiver")
        logger.logLevel = .critical
        let (ports, running) = AsyncStream.makeStream(of: Int.self)
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                              onServerRunning: { running.yield($0.localAddress?.port ?? 0) }, logger: logger)
        task = Task { try await app.run() }
        for await port in ports {
            self.port = port
            break
        }
    }

    func stop() {
        task?.cancel()
    }

    private func take(_ received: Received) -> Int {
        lock.lock()
        defer { lock.unlock() }
        kept.append(received)
        return answers.isEmpty ? 200 : answers.removeFirst()
    }
}
