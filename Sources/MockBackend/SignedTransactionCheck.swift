import AppleVocabulary
import Crypto
import Foundation
import IAPCore
import X509

/// What the app's server checks of a StoreKit 2 signed transaction before it credits, as `SignedDataVerifier` in
/// Apple's server libraries does: the `x5c` chain ends at the root it trusts as Apple's and each certificate signed the
/// next, valid when the transaction was signed; the leaf signed the JWS; it is for this app, in this environment, and
/// the transaction the client names.
struct SignedTransactionCheck {
    /// The DER of the root the server trusts (Apple's, here the store's).
    let trustedRoot: [UInt8]
    let bundleId: String
    let environment: String

    /// The transaction signed, when it passes every check; else the first check that failed.
    func check(_ compactJWS: String, transactionId: String) -> Result<AppleVocabulary.JWSTransaction, SignedTransactionFlaw> {
        guard let signed = SignedTransaction(compactJWS: compactJWS), signed.chain.count == 3, Array(signed.chain[2]) == trustedRoot,
              let certificates = try? signed.chain.map({ try Certificate(derEncoded: Array($0)) }),
              Self.chainHolds(certificates, at: Date(timeIntervalSince1970: Double(signed.transaction.signedDate) / 1000)),
              let key = P256.Signing.PublicKey(certificates[0].publicKey),
              let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signed.signature),
              key.isValidSignature(signature, for: signed.signingInput)
        else { return .failure(.signature) }
        let transaction = signed.transaction
        guard transaction.bundleId == bundleId else { return .failure(.bundle) }
        guard transaction.environment == environment else { return .failure(.environment) }
        // Another transaction's signature, sent with this one's id, proves nothing of this one.
        guard transaction.transactionId == transactionId else { return .failure(.signature) }
        return .success(transaction)
    }

    /// Each certificate signed by the next, and all of them valid at `date`.
    private static func chainHolds(_ chain: [Certificate], at date: Date) -> Bool {
        zip(chain, chain.dropFirst()).allSatisfy { $1.publicKey.isValidSignature($0.signature, for: $0) }
            && chain.allSatisfy { $0.notValidBefore <= date && date <= $0.notValidAfter }
    }
}
