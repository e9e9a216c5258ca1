import AppleReceiptFormat
import AppleVocabulary
import Crypto
import MockStore

/// The store's chain as it signs: its receipts sealed in PKCS#7, its transactions with the leaf's key.
public struct ChainSigner: StoreSigner {
    private let certificates: StoreCertificates
    private let sealer: ReceiptSealer

    public init(_ certificates: StoreCertificates) throws {
        self.certificates = certificates
        sealer = try ReceiptSealer(certificates)
    }

    /// The signer of the chain this store database holds (made and kept on first use): what a `MockPaymentQueue` is
    /// given.
    public static func of(_ database: StoreDatabase) throws -> any StoreSigner {
        try ChainSigner(StoreCertificates.of(database))
    }

    public var chain: [[UInt8]] { [certificates.leaf, certificates.intermediate, certificates.root] }
    public var signingKey: P256.Signing.PrivateKey { certificates.signingKey }
    public func seal(_ receipt: Receipt) throws -> String { try sealer.seal(receipt) }
    public func open(_ base64: String) -> ReceiptCheck { sealer.open(base64) }
}
