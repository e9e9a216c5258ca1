import AppleReceiptFormat
import AppleVocabulary
import Foundation
import IAPApp
import MockStore
import StoreSigning
import Testing

/// `iapsim receipt`: the receipt a team's server is handed, read from the files after the app has quit.
@Suite("iapsim receipt")
struct DeviceReceiptTests {
    @Test("the receipt is dated on the store's clock, not before the purchases it lists, when that clock ran ahead of the wall (a skip, a fast clock)")
    func datedOnTheStoresClock() throws {
        let app = try Harness(user: "alice", faults: [.backendDown])
        // Three years past the harness's start, itself past today: the store's clock well ahead of the wall's.
        app.advance(3 * 365 * 86_400)
        app.press(.enter)
        app.advance(3)
        let bought = try #require(try app.storeTransactions().first?.0)
        #expect(bought.date > Date().addingTimeInterval(365 * 86_400))

        let base64 = try #require(try DeviceReceipt.read(in: app.directory, catalog: shippedCatalog))
        let sealer = try ReceiptSealer(try StoreCertificates.of(app.parties.store.database))
        guard case let .valid(receipt) = sealer.open(base64) else { Issue.record("not a valid receipt"); return }
        let created = try #require(receipt.receipt_creation_date_ms.flatMap(Int64.init))
        let purchased = try #require(receipt.in_app.first.flatMap { Int64($0.purchase_date_ms) })
        #expect(created >= purchased, "receipt created \(created) ms, before the purchase it lists (\(purchased) ms)")
    }
}
