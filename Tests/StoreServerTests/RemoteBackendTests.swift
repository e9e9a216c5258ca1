import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Hummingbird
import IAPCore
import Launcher
import Logging
import StoreServer
import Testing

/// `--backend URL` (issue 23): what a team's server answered is said as it was, and the URL's credentials are used,
/// never shown.
@Suite("A team's own backend: answers said as they were, credentials never shown", .serialized)
struct RemoteBackendTests {
    /// A team's server in miniature: POST /backend/v1/orders answers `body` with status 200; it keeps the
    /// Authorization header it was sent.
    private final class TeamServer: @unchecked Sendable {
        private let lock = NSLock()
        private var task: Task<Void, Error>?
        private var authorization: String?
        private(set) var port = 0

        var heardAuthorization: String? {
            lock.lock()
            defer { lock.unlock() }
            return authorization
        }

        private func heard(_ header: String?) {
            lock.lock()
            authorization = header
            lock.unlock()
        }

        func start(answering body: String) async throws {
            let router = Router()
            router.post("backend/v1/orders") { [self] request, _ -> Response in
                heard(request.headers[.authorization])
                return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: body)))
            }
            var logger = Logger(label: "test.team")
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
    }

    /// Asks the backend for an order and pumps its thread until the answer comes: the result and the timeline's line.
    private func createOrder(at url: String, timeout: Int = 10) async throws -> (Result<String, BackendError>, [Localized], RemoteBackend) {
        let thread = PartyThread()
        let backend = RemoteBackend(url: url, thread: thread, timeout: timeout)
        let box = Box()
        backend.createOrder(user: "alice", productId: "com.iapsim.coins.60") { box.result = $0 }
        let deadline = Date().addingTimeInterval(15)
        // Pumped without blocking: the server and the HTTP client need the cooperative pool this test runs on.
        while box.result == nil, Date() < deadline {
            if !thread.runJobs(waitingUpTo: 0) { try await Task.sleep(for: .milliseconds(10)) }
        }
        return (try #require(box.result), backend.takeExchanges(), backend)
    }

    private final class Box: @unchecked Sendable {
        var result: Result<String, BackendError>?
    }

    @Test("a 200 whose JSON is not the contract's is said so, not called HTTP 502")
    func notTheContract() async throws {
        let server = TeamServer()
        try await server.start(answering: #"{"hello": "world"}"#)
        defer { server.stop() }
        let (result, lines, _) = try await createOrder(at: "http://127.0.0.1:\(server.port)")
        #expect(result == .failure(.notTheContract(status: 200)))
        #expect(lines.first?.en.contains("200, not the contract's JSON") == true, "\(lines)")
        #expect(VerifyOutcome(.failure(.notTheContract(status: 200))) == .retry(reason: .notTheContract))
    }

    @Test("a body over 1 MB is said so, not called unreachable")
    func tooLarge() async throws {
        let server = TeamServer()
        try await server.start(answering: #"{"orderId": ""# + String(repeating: "x", count: 2 << 20) + #""}"#)
        defer { server.stop() }
        let (result, lines, _) = try await createOrder(at: "http://127.0.0.1:\(server.port)")
        #expect(result == .failure(.tooLarge(status: 200)))
        #expect(lines.first?.en.contains("200, body over 1 MB") == true, "\(lines)")
        #expect(VerifyOutcome(.failure(.tooLarge(status: 200))) == .retry(reason: .tooLarge))
    }

    @Test("credentials in the URL go as Basic authorization, and are never shown")
    func credentials() async throws {
        let server = TeamServer()
        try await server.start(answering: #"{"orderId": "ORD-1"}"#)
        defer { server.stop() }
        let (result, lines, backend) = try await createOrder(at: "http://qa:s3cret@127.0.0.1:\(server.port)/")
        #expect(result == .success("ORD-1"))
        #expect(server.heardAuthorization == "Basic " + Data("qa:s3cret".utf8).base64EncodedString())
        #expect(backend.creditsKeptAt == "http://***@127.0.0.1:\(server.port)")
        #expect(!lines.contains { $0.en.contains("s3cret") || $0.zh.contains("s3cret") })
        #expect(throws: BackendURLError.self) { try BackendURL.check("ftp://qa:s3cret@host") }
        do { _ = try BackendURL.check("ftp://qa:s3cret@host") } catch { #expect(!"\(error)".contains("s3cret"), "\(error)") }
    }
}

extension RemoteBackendTests {
    @Test("nothing listening is unreachable; a server that takes the connection and never answers is a timeout, told with how long it waited")
    func unreachableAndTimeout() async throws {
        let closed = try SilentListener()
        let port = closed.port
        closed.close()
        let (refused, refusedLines, _) = try await createOrder(at: "http://127.0.0.1:\(port)")
        #expect(refused == .failure(.unreachable))
        #expect(refusedLines.first?.en.hasPrefix("backend: POST /backend/v1/orders → unreachable (") == true, "\(refusedLines)")

        let silent = try SilentListener()
        defer { silent.close() }
        let (waited, waitedLines, _) = try await createOrder(at: "http://127.0.0.1:\(silent.port)", timeout: 1)
        #expect(waited == .failure(.timeout))
        let milliseconds = waitedLines.first.flatMap { Int($0.en.split(separator: "(").last?.split(separator: " ").first ?? "") }
        #expect(waitedLines.first?.en.hasPrefix("backend: POST /backend/v1/orders → timeout (") == true, "\(waitedLines)")
        // The client's timer and this clock are not the same clock: a deadline may be told a millisecond or two early.
        #expect((990..<5000).contains(milliseconds ?? 0), "\(waitedLines)")
    }

    @Test("a notification to nothing listening is refused, to a server that never answers timed out")
    func notificationRefusedAndTimedOut() async throws {
        let closed = try SilentListener()
        let port = closed.port
        closed.close()
        let transport = HTTPNotificationTransport(timeout: 1)
        #expect(await transport.post(Data("{}".utf8), to: URL(string: "http://127.0.0.1:\(port)/apple")!) == "connection refused")
        let silent = try SilentListener()
        defer { silent.close() }
        #expect(await transport.post(Data("{}".utf8), to: URL(string: "http://127.0.0.1:\(silent.port)/apple")!) == "timed out")
    }

    @Test("a notification over TLS to a server that speaks plain HTTP failed its TLS handshake, said in words, not OpenSSL's")
    func notificationTLSFailure() async throws {
        let server = TeamServer()
        try await server.start(answering: "{}")
        defer { server.stop() }
        let transport = HTTPNotificationTransport(timeout: 5)
        let said = await transport.post(Data("{}".utf8), to: URL(string: "https://127.0.0.1:\(server.port)/apple")!)
        #expect(said == "TLS handshake failed", "\(said ?? "taken")")
    }

    @Test("a port out of range in a team's URL is refused where it is given, not a crash at the first request")
    func portOutOfRange() {
        #expect(throws: BackendURLError.self) { try BackendURL.check("http://qa:s3cret@127.0.0.1:99999") }
        do { _ = try BackendURL.check("http://127.0.0.1:70000") } catch { #expect("\(error)".contains("1 to 65535"), "\(error)") }
        #expect(throws: Never.self) { try BackendURL.check("http://127.0.0.1:9000") }
    }

    @Test("credentials without a scheme are not shown either")
    func credentialsWithoutAScheme() {
        #expect(ShownURL.redacting(in: #"The value 'qa:s3cret@127.0.0.1' is invalid: "qa:s3cret@127.0.0.1""#) == #"The value '***@127.0.0.1' is invalid: "***@127.0.0.1""#)
        #expect(ShownURL.redacting(in: "mail bob@example.com") == "mail bob@example.com")
    }
}

/// A socket on 127.0.0.1 that listens and never accepts: the kernel takes a client's connection, and nobody ever answers.
private final class SilentListener {
    private var socketDescriptor: Int32
    let port: Int

    init() throws {
        let listening = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listening, pointer, length) == 0 && listen(listening, 8) == 0 && getsockname(listening, pointer, &length) == 0
            }
        }
        guard bound else {
            _ = Glibc.close(listening)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        socketDescriptor = listening
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() {
        if socketDescriptor >= 0 { _ = Glibc.close(socketDescriptor) }
        socketDescriptor = -1
    }
}
