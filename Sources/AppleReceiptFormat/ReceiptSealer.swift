import AppleVocabulary
import Crypto
import Foundation
@_spi(CMS) import X509

/// The app receipt as Apple ships it: base64 of a PKCS#7 (CMS) SignedData whose content is Apple's ASN.1 payload,
/// signed by the leaf of the store's chain, with the leaf and the intermediate attached as Apple attaches its own.
public struct ReceiptSealer: Sendable {
    private let leaf: Certificate
    private let intermediate: Certificate
    private let key: Certificate.PrivateKey
    private let publicKey: P256.Signing.PublicKey

    /// Parses the chain once: each purchase seals a new receipt.
    public init(_ certificates: StoreCertificates) throws {
        leaf = try Certificate(derEncoded: certificates.leaf)
        intermediate = try Certificate(derEncoded: certificates.intermediate)
        key = Certificate.PrivateKey(certificates.signingKey)
        publicKey = certificates.signingKey.publicKey
    }

    /// The receipt signed, with what `open` reads back from it: the store knows what it sealed. The payload keeps every
    /// field but those verifyReceipt adds, so that is the receipt without them (debug builds, which every test runs,
    /// read it back to be sure). `opaque`: the payload's random opaque value (16 bytes).
    public func seal(_ receipt: Receipt, opaque: [UInt8]) throws -> SealedReceipt {
        let contents = receipt.withEntries(\.asSigned)
        let payload = try contents.payload(opaque: opaque)
        assert((try? Receipt(payload: payload[...])) == contents, "a sealed receipt reads back as it was sealed")
        let signed = try CMS.sign(payload, additionalIntermediateCertificates: [intermediate], certificate: leaf, privateKey: key, detached: false)
        return SealedReceipt(base64: Data(signed).base64EncodedString(), contents: contents)
    }

    /// What Apple's `verifyReceipt` does first: open the container, check that this store's leaf signed it, then read
    /// the payload.
    public func open(_ base64: String) -> ReceiptCheck {
        guard let data = Data(base64Encoded: base64), let signed = try? SignedContent(der: [UInt8](data)) else { return .malformed }
        guard let signature = try? P256.Signing.ECDSASignature(derRepresentation: signed.signature),
              publicKey.isValidSignature(signature, for: signed.content)
        else { return .notAuthenticated }
        guard let receipt = try? Receipt(payload: signed.content) else { return .malformed }
        return .valid(receipt)
    }
}
