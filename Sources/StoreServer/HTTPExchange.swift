import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP request and its answer through Foundation's URL loading (libcurl on Linux, which the toolchain's Foundation
/// already links), so that the wire carries no HTTP client and TLS library of its own beside swift-crypto's.
public enum HTTPExchange {
    struct Answer: Sendable {
        let status: Int
        let body: Data
    }

    enum Failure: Error, Sendable, Equatable {
        /// No answer came within the time given, the connection included.
        case timedOut
        /// Nothing listens where the URL points.
        case refused
        /// The connection's TLS handshake failed: a server without TLS at an https URL, a certificate not trusted.
        case tls
        /// The answer's body went past the most the caller reads; what its status was.
        case tooLarge(status: Int)
        /// Any other reason there is no answer, as Foundation says it.
        case other(String)
    }

    /// libcurl sends a request through the proxy the environment names (`http_proxy`, `https_proxy`, `all_proxy`),
    /// one to 127.0.0.1 too unless `no_proxy` lists it. A team's server and Apple's on this machine are reached directly,
    /// as a person running iapsim beside them expects; others go through the proxy, as curl's would. To be called before
    /// any other thread starts: `setenv` is not safe beside a `getenv`.
    public static func keepLoopbackDirect() {
        let proxies = ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]
        guard proxies.contains(where: { getenv($0) != nil }) else { return }
        for name in ["no_proxy", "NO_PROXY"] {
            let listed = getenv(name).map { String(cString: $0) } ?? ""
            if listed.split(separator: ",").contains("127.0.0.1") { continue }
            setenv(name, listed.isEmpty ? loopback : listed + "," + loopback, 1)
        }
    }

    private static let loopback = "127.0.0.1,localhost,::1"

    /// Sends `request` and waits, up to `timeout` seconds for the whole exchange, for a status and a body of at most
    /// `mostBytes` (reading stops there). Whole seconds: Foundation on Linux cuts a fraction off (0.5 s times out at once).
    static func send(_ request: URLRequest, timeout: Int, mostBytes: Int) async -> Result<Answer, Failure> {
        let seconds = TimeInterval(max(timeout, 1))
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = seconds
        configuration.timeoutIntervalForResource = seconds
        // Every answer is the server's own, now: no cache, no cookies kept.
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpShouldSetCookies = false
        var request = request
        request.timeoutInterval = seconds
        return await withCheckedContinuation { finished in
            let collector = Collector(mostBytes: mostBytes) { finished.resume(returning: $0) }
            // A session of its own, so that its delegate sees only this request's bytes; it ends with the request.
            let session = URLSession(configuration: configuration, delegate: collector, delegateQueue: nil)
            session.dataTask(with: request).resume()
        }
    }

    /// Gathers one task's status and bytes. Its session's delegate queue is serial, so it is only ever used on one
    /// thread at a time.
    private final class Collector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        private let mostBytes: Int
        private let done: (Result<Answer, Failure>) -> Void
        private var body = Data()
        private var overflowed = false

        init(mostBytes: Int, done: @escaping (Result<Answer, Failure>) -> Void) {
            self.mostBytes = mostBytes
            self.done = done
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            guard !overflowed else { return }
            if body.count + data.count > mostBytes {
                overflowed = true
                dataTask.cancel()
            } else {
                body.append(data)
            }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
            session.finishTasksAndInvalidate()
            let status = (task.response as? HTTPURLResponse)?.statusCode
            if overflowed, let status {
                done(.failure(.tooLarge(status: status)))
            } else if let error {
                done(.failure(Self.failure(error)))
            } else {
                done(.success(Answer(status: status ?? 0, body: body)))
            }
        }

        private static func failure(_ error: Error) -> Failure {
            switch (error as? URLError)?.code {
            case .timedOut?: return .timedOut
            case .cannotConnectToHost?: return .refused
            case .secureConnectionFailed?, .serverCertificateUntrusted?, .serverCertificateHasBadDate?,
                 .serverCertificateNotYetValid?, .serverCertificateHasUnknownRoot?, .clientCertificateRejected?,
                 .clientCertificateRequired?:
                return .tls
            // Linux's Foundation gives libcurl's TLS failures no code of their own, only curl's words for them
            // ("OpenSSL/3.0.19: error:…", "SSL certificate problem: …").
            case .unknown? where ["SSL", "TLS"].contains(where: error.localizedDescription.contains):
                return .tls
            default: return .other(error.localizedDescription)
            }
        }
    }
}
