import AppleReceiptFormat
import AppleVocabulary
import Foundation
import JWTKit
import Synchronization

/// Signs what Apple's servers sign, as they do: ES256 with the leaf's key and the whole chain in `x5c`, so that a
/// verifier given only the root certificate can check it.
public actor AppleSigner {
    private let keys = JWTKeyCollection()
    private let key: ES256PrivateKey
    private let x5c: JWTHeaderField
    /// The key as jwt-kit signs with it, and the header jwt-kit wrote (the chain checked, base64url): both the same for
    /// every signature. jwt-kit's own `sign` checks the whole chain again each time, most of a signature's cost. Kept
    /// outside the actor's isolation, so that a signature once prepared never waits its turn on the actor.
    private nonisolated let prepared = Mutex<Prepared?>(nil)
    private let serializer = DefaultJWTSerializer()

    private typealias Prepared = (algorithm: any JWTAlgorithm, header: String)

    public init(_ certificates: StoreCertificates) throws {
        key = try ES256PrivateKey(pem: certificates.signingKey.pemRepresentation)
        // jwt-kit takes the chain as PEM, checks it and writes it into the header as Apple does: base64 DER, leaf first.
        x5c = .array(try [certificates.leaf, certificates.intermediate, certificates.root].map { .string(try StoreCertificates.pem($0)) })
    }

    /// A compact JWS: the header, the payload as jwt-kit encodes it, and the signature over both, each base64url.
    /// Only the preparation is the actor's: signatures are made side by side, on whichever threads ask for them.
    public nonisolated func sign(_ payload: some JWTPayload) async throws -> String {
        let ready: Prepared
        if let done = prepared.withLock({ $0 }) { ready = done } else { ready = try await prepare() }
        let input = ready.header + "." + Base64URL.encode(try serializer.jsonEncoder.encode(payload))
        return input + "." + Base64URL.encode(try ready.algorithm.sign(Data(input.utf8)))
    }

    private func prepare() async throws -> Prepared {
        if let done = prepared.withLock({ $0 }) { return done }
        await keys.add(ecdsa: key)
        let algorithm = try await keys.getKey()
        let header = try await serializer.makeHeader(from: ["x5c": x5c], key: algorithm)
        let ready = (algorithm, Base64URL.encode(try serializer.jsonEncoder.encode(header)))
        prepared.withLock { $0 = ready }
        return ready
    }
}
