import SwiftASN1

/// RFC 5652's SignedData, read as far as a receipt's check needs it: the content and its one signer's signature.
/// swift-certificates checks a CMS signature only asynchronously (its trust policies may go to the network), and
/// verifyReceipt answers synchronously on the parties' thread, so the two are read here with swift-asn1 and the
/// signature is checked against the store's own leaf key, which is all that decides whether this store signed it.
struct SignedContent {
    struct Unsupported: Error {}

    let content: ArraySlice<UInt8>
    let signature: ArraySlice<UInt8>

    /// `id-signedData`, 1.2.840.113549.1.7.2.
    private static let signedData: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 2]

    init(der: [UInt8]) throws {
        (content, signature) = try DER.sequence(try DER.parse(der), identifier: .sequence) { info in
            guard try ASN1ObjectIdentifier(derEncoded: &info) == Self.signedData else { throw Unsupported() }
            return try DER.explicitlyTagged(&info, tagNumber: 0, tagClass: .contextSpecific) { signedData in
                try DER.sequence(signedData, identifier: .sequence) { fields in
                    _ = try Int(derEncoded: &fields)
                    _ = fields.next()  // digestAlgorithms
                    guard let encapsulatedContent = fields.next() else { throw Unsupported() }
                    let content = try DER.sequence(encapsulatedContent, identifier: .sequence) { encapsulated in
                        _ = try ASN1ObjectIdentifier(derEncoded: &encapsulated)
                        return try DER.explicitlyTagged(&encapsulated, tagNumber: 0, tagClass: .contextSpecific) {
                            try ASN1OctetString(derEncoded: $0).bytes
                        }
                    }
                    // certificates [0] and crls [1], when present, come before the signers.
                    var signers = fields.next()
                    while let node = signers, node.identifier.tagClass == .contextSpecific { signers = fields.next() }
                    guard let signers else { throw Unsupported() }
                    let signature = try DER.set(signers, identifier: .set) { infos in
                        guard let only = infos.next(), infos.next() == nil else { throw Unsupported() }
                        return try Self.signature(of: only)
                    }
                    return (content, signature)
                }
            }
        }
    }

    /// A SignerInfo's signature, when it signs the content itself: with signed attributes it would sign those instead,
    /// which a receipt of this store never has.
    private static func signature(of signerInfo: ASN1Node) throws -> ArraySlice<UInt8> {
        try DER.sequence(signerInfo, identifier: .sequence) { fields in
            _ = try Int(derEncoded: &fields)
            _ = fields.next()  // sid
            _ = fields.next()  // digestAlgorithm
            guard let next = fields.next(), next.identifier.tagClass != .contextSpecific else { throw Unsupported() }
            return try ASN1OctetString(derEncoded: &fields).bytes
        }
    }
}
