import AppleReceiptFormat
import AppleVocabulary
import Crypto
import MockStore

/// The store's chain as it signs: its receipts sealed in PKCS#7, its transactions with the leaf's key.
public struct ChainSigner: StoreSigner {
    public let chain: [[UInt8]]
    public let signingKey: P256.Signing.PrivateKey
    private let sealer: ReceiptSealer

    public init(_ certificates: StoreCertificates) throws {
        chain = [certificates.leaf, certificates.intermediate, certificates.root]
        signingKey = certificates.signingKey
        sealer = try ReceiptSealer(certificates)
    }

    /// The signer of the chain this store database holds (made and kept on first use): what a `MockPaymentQueue` is
    /// given.
    public static func of(_ database: StoreDatabase) throws -> any StoreSigner {
        try ChainSigner(StoreCertificates.of(database))
    }

    public func seal(_ receipt: Receipt, opaque: [UInt8]) throws -> SealedReceipt { try sealer.seal(receipt, opaque: opaque) }
    public func open(_ base64: String) -> ReceiptCheck { sealer.open(base64) }
}
