import Crypto
import Foundation
import SwiftASN1
import X509

/// The chain that signs what iapsim's App Store says, as Apple's does: a root, an intermediate carrying Apple's
/// "WWDR intermediate" extension and a leaf carrying Apple's "App Store receipt signing" extension, which Apple's
/// verifiers look for before they trust a signed transaction or an app receipt. Created once per data directory and kept
/// in the store's database (`kept`), so a team's server given the root keeps trusting what this directory signs.
public struct StoreCertificates: Sendable {
    /// DER, leaf first, as a JWS's `x5c` header lists them.
    public let leaf: [UInt8]
    public let intermediate: [UInt8]
    public let root: [UInt8]
    /// The leaf's key, which signs every JWS and every app receipt.
    public let signingKey: P256.Signing.PrivateKey

    /// Apple's `1.2.840.113635.100.6.11.1`: the leaf signs App Store data.
    static let receiptSigningOID: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]
    /// Apple's `1.2.840.113635.100.6.2.1`: the intermediate is Apple's WWDR certification authority.
    static let intermediateOID: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]

    /// Valid for as long as a virtual store clock may run (years ahead of the wall), and from before any date it starts.
    static let validity = (from: Date(timeIntervalSince1970: 1_577_836_800), until: Date(timeIntervalSince1970: 4_102_444_800))

    /// What the store's database keeps: the chain and the leaf's key (the root's and intermediate's keys are not kept:
    /// nothing more is ever issued).
    public func kept() throws -> Data { try JSONEncoder().encode(Kept(self)) }

    public init(kept: Data) throws {
        self = try JSONDecoder().decode(Kept.self, from: kept).certificates()
    }

    init(leaf: [UInt8], intermediate: [UInt8], root: [UInt8], signingKey: P256.Signing.PrivateKey) {
        self.leaf = leaf
        self.intermediate = intermediate
        self.root = root
        self.signingKey = signingKey
    }

    public static func make() throws -> StoreCertificates {
        let rootKey = P256.Signing.PrivateKey(), intermediateKey = P256.Signing.PrivateKey(), leafKey = P256.Signing.PrivateKey()
        let rootName = try DistinguishedName {
            CommonName("iapsim Root CA - G3")
            OrganizationalUnitName("iapsim Certification Authority")
            OrganizationName("iapsim")
            CountryName("US")
        }
        let intermediateName = try DistinguishedName {
            CommonName("iapsim Worldwide Developer Relations Certification Authority")
            OrganizationalUnitName("G6")
            OrganizationName("iapsim")
            CountryName("US")
        }
        let leafName = try DistinguishedName {
            CommonName("iapsim Mac App Store and iTunes Store Receipt Signing")
            OrganizationalUnitName("iapsim Worldwide Developer Relations")
            OrganizationName("iapsim")
            CountryName("US")
        }
        let rootPublic = Certificate.PublicKey(rootKey.publicKey), intermediatePublic = Certificate.PublicKey(intermediateKey.publicKey)
        let leafPublic = Certificate.PublicKey(leafKey.publicKey)
        let root = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: rootPublic, notValidBefore: validity.from, notValidAfter: validity.until,
            issuer: rootName, subject: rootName,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: rootPublic)
            },
            issuerPrivateKey: .init(rootKey))
        let intermediate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: intermediatePublic, notValidBefore: validity.from, notValidAfter: validity.until,
            issuer: rootName, subject: intermediateName,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: intermediatePublic)
                AuthorityKeyIdentifier(keyIdentifier: SubjectKeyIdentifier(hash: rootPublic).keyIdentifier)
                Certificate.Extension(oid: intermediateOID, critical: false, value: asn1Null)
            },
            issuerPrivateKey: .init(rootKey))
        let leaf = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: leafPublic, notValidBefore: validity.from, notValidAfter: validity.until,
            issuer: intermediateName, subject: leafName,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                SubjectKeyIdentifier(hash: leafPublic)
                AuthorityKeyIdentifier(keyIdentifier: SubjectKeyIdentifier(hash: intermediatePublic).keyIdentifier)
                Certificate.Extension(oid: receiptSigningOID, critical: false, value: asn1Null)
            },
            issuerPrivateKey: .init(intermediateKey))
        return StoreCertificates(leaf: try der(leaf), intermediate: try der(intermediate), root: try der(root), signingKey: leafKey)
    }

    /// Apple's marker extensions carry an ASN.1 NULL: only their presence means something.
    private static let asn1Null: ArraySlice<UInt8> = [0x05, 0x00]

    private static func der(_ certificate: Certificate) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }

    /// PEM of one certificate, for `iapsim certs --out`.
    public static func pem(_ der: [UInt8]) throws -> String {
        try Certificate(derEncoded: der).serializeAsPEM().pemString
    }

    private struct Kept: Codable {
        let leaf: Data, intermediate: Data, root: Data, signingKey: Data

        init(_ certificates: StoreCertificates) {
            leaf = Data(certificates.leaf)
            intermediate = Data(certificates.intermediate)
            root = Data(certificates.root)
            signingKey = certificates.signingKey.rawRepresentation
        }

        func certificates() throws -> StoreCertificates {
            StoreCertificates(leaf: [UInt8](leaf), intermediate: [UInt8](intermediate), root: [UInt8](root),
                              signingKey: try P256.Signing.PrivateKey(rawRepresentation: signingKey))
        }
    }
}
