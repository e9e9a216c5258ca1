import Foundation
import IAPApp
import IAPCore
import MockBackend
import Testing

/// The backend's restore policy (A2): an app user who buys again or restores what another app user of the same Apple ID
/// holds gets it (transfer), is told it belongs to another account (keep), or holds it beside them (share). The ledger's
/// credit never moves, and only who pressed Buy or Restore claims.
@Suite("Restore policy: transfer, keep, share, and only by who pressed")
struct RestorePolicyTests {
    static let noAds = "com.iapsim.noads"

    private func owns(_ app: Harness, _ user: String) throws -> Bool {
        try app.parties.backend.accountNow(user: user).owned.contains(Self.noAds)
    }

    @Test("transfer (the default): bob's free re-buy moves Remove Ads to him, alice loses it, the move is written down")
    func transferOnRebuy() throws {
        let app = try Harness.aliceBoughtThenBob(Self.noAds)
        #expect(app.parties.backend.restorePolicy == .transfer)
        app.buy(Self.noAds)
        #expect(try owns(app, "bob"))
        #expect(try !owns(app, "alice"))
        // The money stays where it was credited; what it unlocks moved.
        #expect(try app.credits().map(\.user) == ["alice"])
        let moves = try app.parties.backend.database.transfers()
        #expect(moves.map { "\($0.from)→\($0.to) \($0.policy)" } == ["alice→bob transfer"])
        // `iapsim state` says the same: who holds it, the move, the policy.
        let state = try JSONSerialization.jsonObject(with: Data(try StateReport.json(for: app.directory, catalog: shippedCatalog).utf8)) as! [String: Any]
        let accounts = state["accounts"] as! [String: [String: Any]]
        #expect((accounts["bob"]?["owned"] as? [String])?.contains(Self.noAds) == true)
        #expect((accounts["alice"]?["owned"] as? [String])?.contains(Self.noAds) == false)
        let backend = state["backend"] as! [String: Any]
        #expect(backend["restorePolicy"] as? String == "transfer")
        #expect((backend["transfers"] as? [[String: Any]])?.map { "\($0["from"]!)→\($0["to"]!)" } == ["alice→bob"])
        // Per purchase: the Apple ID it was paid with, and the app user who holds it now.
        let bought = ((state["store"] as! [String: Any])["transactions"] as! [[String: Any]]).filter { $0["productId"] as? String == Self.noAds }
        #expect(bought.map { $0["account"] as? String } == ["sandbox-1", "sandbox-1"])
        #expect(bought.map { $0["heldBy"] as? [String] } == [["bob"], ["bob"]])
        // The Apple ID is listed as one, where it is signed in, not as an app user.
        #expect(accounts["sandbox-1"] == nil)
        let appleIds = (state["store"] as! [String: Any])["appleIds"] as? [String: [String: Any]]
        #expect(appleIds?["sandbox-1"]?["signedInOn"] as? [String] == ["phone"])
        // The inspector lists the move under the backend, with its policy in the screen's language.
        app.press(.char("i"))
        let en = app.screen(width: 120, height: 30)
        #expect(en.contains("Remove Ads") && en.contains("alice → bob") && en.contains("(transfer)"), "\(en)")
        // Who it moved from and to stays whole where a column is narrow (found by QA at 64×18: "Remove Ads alice → …").
        let narrow = app.screen(width: 64, height: 18)
        #expect(narrow.contains("alice → bob") && narrow.contains("(transfer)"), "\(narrow)")
        app.press(.char("l"))
        let zh = app.screen(width: 120, height: 30)
        #expect(zh.contains("alice → bob") && zh.contains("(转移)") && !zh.contains("transfer"), "\(zh)")
        app.press(.char("l"))
        app.press(.char("i"))
        // Back again: alice restores, and it is hers once more.
        app.logIn("alice")
        app.runtime.send(.intent(.restorePurchases))
        app.advance(5)
        #expect(try owns(app, "alice"))
        #expect(try !owns(app, "bob"))
    }

    @Test("keep: bob is told the purchase belongs to another account, and it stays alice's")
    func keepTellsTheOther() throws {
        let app = try Harness.aliceBoughtThenBob(Self.noAds, policy: .keep)
        app.select(Self.noAds)
        app.press(.enter)
        app.advance(5)
        #expect(app.screen().contains("This purchase belongs to another account"))
        #expect(try owns(app, "alice"))
        #expect(try !owns(app, "bob"))
        #expect(try app.parties.backend.database.transfers().isEmpty)
        #expect(try app.clientOrders().isEmpty)
        // Restoring says the same.
        app.press(.escape)
        app.runtime.send(.intent(.restorePurchases))
        app.advance(5)
        #expect(app.screen().contains("This purchase belongs to another account"))
    }

    @Test("share: bob's restore lets both hold it")
    func shareOnRestore() throws {
        let app = try Harness.aliceBoughtThenBob(Self.noAds, policy: .share)
        app.runtime.send(.intent(.restorePurchases))
        app.advance(5)
        #expect(app.screen().contains("Purchases restored (1)"))
        #expect(try owns(app, "alice"))
        #expect(try owns(app, "bob"))
    }

    @Test("only who pressed claims: bob's restore, killed before it was saved, comes back to carol, who carries it and gains nothing")
    func carriedRestoreClaimsNothing() throws {
        let app = try Harness.aliceBoughtThenBob(Self.noAds)
        app.session.set(.crashAt, FaultArm(value: "persist", once: true))
        app.runtime.send(.intent(.restorePurchases))
        app.advance(5)
        try app.relaunch(user: "carol", faults: [])
        app.advance(10)
        #expect(try owns(app, "alice"))
        #expect(try !owns(app, "carol"))
        #expect(try !owns(app, "bob"))
        #expect(try app.parties.backend.database.transfers().isEmpty)
        #expect(try app.unfinishedInStore(on: "phone") == 0)
    }

    @Test("the policy is the server's setting: kept in its data across launches")
    func policyIsKept() throws {
        let app = try Harness(user: "alice")
        app.parties.backend.restorePolicy = .share
        try app.relaunch(user: "alice")
        #expect(app.parties.backend.restorePolicy == .share)
    }
}
