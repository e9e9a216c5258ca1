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

    @Test("what the store keeps of a receipt it sealed is what verifyReceipt reads from its bytes, every field an entry can have included")
    func sealedAsOpened() throws {
        let app = try Harness.paidWhile()
        let sealer = try ReceiptSealer(try StoreCertificates.of(app.parties.store.database))
        var entry = Receipt.Entry(transaction_id: "1000000007", original_transaction_id: "1000000003", product_id: "com.iapsim.vip.monthly",
                                  purchase_date_ms: "1800000000123")
        entry.original_purchase_date_ms = "1790000000456"
        entry.expires_date_ms = "1802592000123"
        entry.is_trial_period = "false"
        entry.is_in_intro_offer_period = "true"
        entry.promotional_offer_id = "welcome-back"
        entry.offer_code_ref_name = "SPRING"
        entry.cancellation_date_ms = "1801000000000"
        entry.cancellation_reason = "1"
        entry.web_order_line_item_id = "2000000004"
        entry.subscription_group_identifier = "vip"
        entry.in_app_ownership_type = "FAMILY_SHARED"
        let sealed = try sealer.seal(Receipt(bundle_id: Receipt.bundleId, environment: "Sandbox", in_app: [entry],
                                             receipt_creation_date_ms: "1800000000999"), opaque: Array(repeating: 7, count: 16))
        #expect(sealer.open(sealed.base64) == .valid(sealed.contents))
        // With verifyReceipt's date strings on the entry too: the payload has no field for them either.
        let dated = try sealer.seal(Receipt(bundle_id: Receipt.bundleId, environment: "Sandbox", in_app: [entry.dated]), opaque: Array(repeating: 9, count: 16))
        #expect(sealer.open(dated.base64) == .valid(dated.contents))
    }

    @Test("the receipt the store just sealed, one byte of its signature changed, is refused (21003): only its exact bytes are known")
    func sealedThenAltered() throws {
        let app = try Harness.paidWhile()
        let service = app.parties.store.receiptService
        let own = try ReceiptDER(try #require(app.parties.store.appReceipt()))
        var altered = own.bytes
        altered[altered.count - 1] ^= 0x01
        #expect(service.verify(VerifyReceiptRequest(receiptData: Data(altered).base64EncodedString()), at: .sandbox).status
            == ReceiptStatus.notAuthenticated)
        #expect(service.verify(VerifyReceiptRequest(receiptData: own.base64), at: .sandbox).status == ReceiptStatus.ok)
    }
}
