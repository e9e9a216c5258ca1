import DataFiles
import Foundation
import GRDB
import IAPCore
import IAPUI
@testable import ClientPersistence
import Testing

/// An order keeps what it paid as a value and says it in the language of the screen, whenever it was bought.
@Suite("What an order paid")
struct OrderPriceTests {
    /// The shipped products priced in yen: a currency whose sign reads differently in the two languages.
    static let yen = shippedCatalog.map { product in
        let amount = (product.amount?.amount ?? 1) * 100
        return Product(id: product.id, kind: product.kind, title: product.title, summary: product.summary,
                       price: Localized("¥\(amount)"), coins: product.coins, subscription: product.subscription, amount: Money(amount, "JPY"))
    }

    @Test("bought in English and then shown in Chinese, the pending order's price is in Chinese")
    func languageSwitchedAfterThePurchase() throws {
        let app = try Harness(user: "alice", faults: [.backendDown], catalog: Self.yen)
        app.advance(0.5)
        app.press(.enter)
        app.advance(3)
        app.press(.escape, .char("L"))
        #expect(app.screen().contains("60 Coins · ¥600 · tx"))
        app.press(.escape, .char("l"), .char("L"))
        #expect(app.screen().contains("60 金币 · JP¥600 · tx"))
        #expect(try app.clientOrders().map(\.price) == [.value(Money(600, "JPY"))])
    }

    @Test("a free trial's order says it was free, in the prompt and the logout warning (found by QA: both said the catalog's ¥30)")
    func freeTrialOrder() throws {
        let app = try Harness(user: "alice", faults: [.backendDown])
        app.advance(0.5)
        app.buy("com.iapsim.vip.monthly")
        #expect(try app.clientOrders().map(\.price) == [.value(Money(0, "CNY"))])
        app.press(.char("L"))
        let warning = app.screen()
        #expect(warning.contains("Monthly VIP · Free · tx"), "\(warning)")
    }

    @Test("a free re-buy of what the Apple ID owns says it was free, on the HUD and in the order (S7; found by QA: both said ¥18)")
    func freeRebuyOrder() throws {
        let app = try Harness.aliceBoughtThenBob("com.iapsim.noads")
        app.select("com.iapsim.noads")
        app.press(.enter)
        app.advance(5)
        let hud = app.screen()
        #expect(hud.contains("Purchase complete") && hud.contains("Remove Ads · Free"), "\(hud)")
        app.press(.escape)
        // Kept while the backend is down: the order says what it paid.
        app.logIn("carol")
        app.session.set(.backendDown, FaultArm())
        app.select("com.iapsim.noads")
        app.press(.enter)
        app.advance(5)
        #expect(try app.clientOrders().filter { $0.user == "carol" }.map(\.price) == [.value(Money(0, "CNY"))])
    }

    @Test("an order an earlier version saved, with its price in words, still loads, at launch and for iapsim state")
    func orderOfTheEarlierSchema() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iapsim-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let keychain = folder.appendingPathComponent("keychain.sqlite").path, sandbox = folder.appendingPathComponent("sandbox.sqlite").path
        let earlier = try DataFile.open(keychain, identity: .keychain, migrations: Array(ClientDatabase.keychainMigrations.prefix(4)))
        try earlier.write { db in
            try db.execute(sql: """
                INSERT INTO pendingOrder (transactionId, user, productId, orderId, purchasedAt, price, receiptHash, attempts, lastAttemptAt, status)
                VALUES ('1000000007', 'alice', 'com.iapsim.coins.300', 'ORD-7', 1800000000, '¥30', NULL, 2, NULL, 'pending')
                """)
        }
        #expect(try earlier.read { try ClientDatabase.holdings($0) }.orders.map(\.price) == ["¥30"])
        try earlier.close()

        let vault = try ClientDatabase(keychainPath: keychain, sandboxPath: sandbox)
        let found = try vault.snapshot(user: "alice", pageSize: 64)
        #expect(found.pendingTotal == 1)
        #expect(found.pending.map(\.transactionId) == ["1000000007"] && found.pending.map(\.price) == ["¥30"])
        // A new order beside it keeps a value, read back digit for digit.
        try vault.save(PendingOrder(transactionId: "1000000008", user: "alice", productId: "com.iapsim.coins.60", orderId: nil,
                                    purchasedAt: Date(timeIntervalSince1970: 1_800_000_001), price: .value(Money(Decimal(string: "0.99")!, "USD")),
                                    receiptHash: nil))
        #expect(try vault.allOrders().map(\.price) == ["¥30", .value(Money(Decimal(string: "0.99")!, "USD"))])
        try vault.close()
    }

    @Test("a price is said in the screen's language; the words of a catalog price give its amount when they can")
    func words() {
        #expect(Money(30, "CNY").words(.en) == "¥30" && Money(30, "CNY").words(.zh) == "¥30")
        #expect(Money(980, "JPY").words(.en) == "¥980" && Money(980, "JPY").words(.zh) == "JP¥980")
        #expect(Money(Decimal(string: "9.9")!, "USD").words(.en) == "$9.90")
        #expect(Money(shown: "₩1,500", currency: "KRW") == Money(1500, "KRW"))
        #expect(Money(shown: "$0.99", currency: "USD") == Money(Decimal(string: "0.99")!, "USD"))
        #expect(Money(shown: "9,99 €", currency: "EUR") == nil)
        #expect(Money(shown: "US$12,345.67", currency: "USD") == Money(Decimal(string: "12345.67")!, "USD"))
        #expect(["1,50", "1.2.3", "12,3456", ",500", "1.", "free"].allSatisfy { Money(shown: $0, currency: "USD") == nil })
        #expect(Money(stored: Money(Decimal(string: "0.99")!, "USD").stored, currency: "USD") == Money(Decimal(string: "0.99")!, "USD"))
        #expect(shippedCatalog.allSatisfy { $0.amount?.currency == "CNY" })
    }
}
