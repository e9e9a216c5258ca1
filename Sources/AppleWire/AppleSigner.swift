import Foundation
import JWTKit

/// Signs what Apple's servers sign, as they do: ES256 with the leaf's key and the whole chain in `x5c`, so that a
/// verifier given only the root certificate can check it.
public actor AppleSigner {
    private let keys = JWTKeyCollection()
    private let key: ES256PrivateKey
    private let x5c: JWTHeaderField
    private var keyAdded = false

    public init(_ certificates: StoreCertificates) throws {
        key = try ES256PrivateKey(pem: certificates.signingKey.pemRepresentation)
        // jwt-kit takes the chain as PEM, checks it and writes it into the header as Apple does: base64 DER, leaf first.
        x5c = .array(try [certificates.leaf, certificates.intermediate, certificates.root].map { .string(try StoreCertificates.pem($0)) })
    }

    public func sign(_ payload: some JWTPayload) async throws -> String {
        if !keyAdded {
            await keys.add(ecdsa: key)
            keyAdded = true
        }
        return try await keys.sign(payload, header: ["x5c": x5c])
    }
}
