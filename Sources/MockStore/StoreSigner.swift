import AppleVocabulary
import Crypto

/// What the store signs with: the chain it keeps, which signs its receipts and its transactions. A receipt's PKCS#7 is
/// swift-certificates' work (StoreSigning's `ChainSigner`), which the store is given rather than built with, so that it
/// does not wait for that library to build.
public protocol StoreSigner {
    /// The DER of the leaf, the intermediate and the root, as a JWS's `x5c` lists them; the root is what an app's
    /// server trusts as Apple's.
    var chain: [[UInt8]] { get }
    /// The leaf's key.
    var signingKey: P256.Signing.PrivateKey { get }
    /// `opaque`: the random value Apple puts in each receipt, which the store draws.
    func seal(_ receipt: Receipt, opaque: [UInt8]) throws -> SealedReceipt
    /// What Apple's `verifyReceipt` does first: open the container, check that this store's leaf signed it, then read
    /// the payload.
    func open(_ base64: String) -> ReceiptCheck
}
