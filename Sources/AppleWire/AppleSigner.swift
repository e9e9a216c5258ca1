import AppleReceiptFormat
import AppleVocabulary
import Foundation
import JWTKit

/// Signs what Apple's servers sign, as they do: ES256 with the leaf's key and the whole chain in `x5c`, so that a
/// verifier given only the root certificate can check it.
public actor AppleSigner {
    private let keys = JWTKeyCollection()
    private let key: ES256PrivateKey
    private let x5c: JWTHeaderField
    /// The key as jwt-kit signs with it, and the header jwt-kit wrote (the chain checked, base64url): both the same for
    /// every signature. jwt-kit's own `sign` checks the whole chain again each time, most of a signature's cost.
    private var prepared: (algorithm: any JWTAlgorithm, header: String)?
    private let serializer = DefaultJWTSerializer()

    public init(_ certificates: StoreCertificates) throws {
        key = try ES256PrivateKey(pem: certificates.signingKey.pemRepresentation)
        // jwt-kit takes the chain as PEM, checks it and writes it into the header as Apple does: base64 DER, leaf first.
        x5c = .array(try [certificates.leaf, certificates.intermediate, certificates.root].map { .string(try StoreCertificates.pem($0)) })
    }

    /// A compact JWS: the header, the payload as jwt-kit encodes it, and the signature over both, each base64url.
    /// Only the preparation is the actor's: signatures are made side by side, on whichever threads ask for them.
    public nonisolated func sign(_ payload: some JWTPayload) async throws -> String {
        let (algorithm, header) = try await prepare()
        let input = header + "." + Base64URL.encode(try serializer.jsonEncoder.encode(payload))
        return input + "." + Base64URL.encode(try algorithm.sign(Data(input.utf8)))
    }

    private func prepare() async throws -> (algorithm: any JWTAlgorithm, header: String) {
        if let prepared { return prepared }
        await keys.add(ecdsa: key)
        let algorithm = try await keys.getKey()
        let header = try await serializer.makeHeader(from: ["x5c": x5c], key: algorithm)
        let ready = (algorithm, Base64URL.encode(try serializer.jsonEncoder.encode(header)))
        prepared = ready
        return ready
    }
}
