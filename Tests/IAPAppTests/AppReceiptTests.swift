import AppleReceiptFormat
import AppleVocabulary
import Foundation
import IAPCore
import MockStore
import StoreSigning
import Testing
@_spi(CMS) import X509

/// The app receipt as a team's server or QA reads it: Apple's PKCS#7 container holding Apple's ASN.1 payload, signed by
/// the data directory's chain, and what `verifyReceipt` answers for a forged or foreign one.
@Suite("The app receipt in Apple's format")
struct AppReceiptTests {
    @Test("the receipt is a CMS SignedData that a verifier given the directory's root accepts, signed by its leaf with the intermediate attached")
    func signedByTheChain() async throws {
        let app = try Harness.paidWhile()
        let receipt = try ReceiptDER(try #require(app.parties.store.appReceipt()))
        let chain = try StoreCertificates.of(app.parties.store.database)
        let signature = try CMSSignature(derEncoded: receipt.bytes)
        #expect(try signature.signers.map(\.certificate) == [try Certificate(derEncoded: chain.leaf)])
        #expect(signature.certificates.contains(try Certificate(derEncoded: chain.intermediate)))
        let checked = await CMS.isValidAttachedSignature(signatureBytes: receipt.bytes,
                                                         trustRoots: CertificateStore([try Certificate(derEncoded: chain.root)])) {
            RFC5280Policy()
        }
        #expect(throws: Never.self) { try checked.get() }
    }

    @Test("its payload carries Apple's fields: the sandbox receipt type, the bundle id, each purchase's ids and its date as RFC 3339 text")
    func applePayload() throws {
        let app = try Harness.paidWhile()
        let receipt = try ReceiptDER(try #require(app.parties.store.appReceipt()))
        let bought = try #require(try app.storeTransactions().first?.0)
        #expect(receipt.contains("ProductionSandbox"))
        #expect(receipt.contains(Receipt.bundleId))
        #expect(receipt.contains(bought.productId) && receipt.contains(bought.id))
        let seconds = Date.ISO8601FormatStyle().format(bought.date).dropLast()
        #expect(receipt.contains(String(seconds)))
    }

    @Test("verifyReceipt answers 21003 for a receipt signed by another data directory's chain and 21002 for one cut short")
    func foreignAndCut() throws {
        let app = try Harness.paidWhile(), other = try Harness.paidWhile()
        let service = app.parties.store.receiptService
        let foreign = try #require(other.parties.store.appReceipt())
        #expect(service.verify(VerifyReceiptRequest(receiptData: foreign), at: .sandbox).status == ReceiptStatus.notAuthenticated)
        let own = try ReceiptDER(try #require(app.parties.store.appReceipt()))
        let cut = Data(own.bytes.prefix(own.bytes.count / 2)).base64EncodedString()
        #expect(service.verify(VerifyReceiptRequest(receiptData: cut), at: .sandbox).status == ReceiptStatus.malformed)
        #expect(service.verify(VerifyReceiptRequest(receiptData: own.base64), at: .sandbox).status == ReceiptStatus.ok)
    }
}
