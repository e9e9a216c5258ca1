import Foundation
import IAPCore
@testable import MockStore
import Testing

/// Family Sharing (A4): a family-shareable product bought by one Apple ID is owned by the family's other Apple IDs, each
/// through a transaction of its own that Apple never charged, and is revoked when the purchase is refunded or a member
/// leaves.
@Suite("Family Sharing: what one Apple ID buys, the family owns, until a refund or a member leaving revokes it")
struct FamilySharingTests {
    static let noAds = "com.iapsim.noads", ink = "com.iapsim.theme.ink"

    /// alice bought Remove Ads (family-shareable) and Ink Theme (not) with sandbox-1; sandbox-1 and sandbox-2 are one
    /// family; bob logged in on the phone with sandbox-2 signed in and restored.
    private func aliceBoughtBobRestored() throws -> Harness {
        let app = try Harness(user: "alice")
        app.runtime.send(.intent(.signInAppleId("sandbox-1")))
        app.advance(0.5)
        app.buy(Self.noAds)
        app.buy(Self.ink)
        #expect(app.parties.store.joinFamily(["sandbox-1", "sandbox-2"]))
        app.logIn("bob")
        app.runtime.send(.intent(.signInAppleId("sandbox-2")))
        app.advance(0.5)
        app.runtime.send(.intent(.restorePurchases))
        app.advance(10)
        return app
    }

    private func shared(_ app: Harness) throws -> [StoreRecord] {
        let records = try app.storeRecords().filter { $0.account == "sandbox-2" }
        let details = try app.storeDetails(records.map(\.transaction.id))
        return records.filter { details[$0.transaction.id]?.familyShared == true }
    }

    @Test("a family member restores what another Apple ID of the family bought, as FAMILY_SHARED, and Apple charged once")
    func memberRestoresShared() throws {
        let app = try aliceBoughtBobRestored()
        #expect(app.screen().contains("Purchases restored (1)"))
        let shared = try shared(app)
        // Apple's own transaction for the member, and the restore of it: both the family's, neither a charge.
        #expect(shared.map(\.transaction.productId) == [Self.noAds, Self.noAds])
        #expect(shared.map(\.transaction.state) == [.purchased, .restored])
        #expect(try app.charges().filter { $0.account == "sandbox-1" }.count == 2)
        #expect(try app.charges().filter { $0.account == "sandbox-2" }.isEmpty)
        let entry = try #require(try app.parties.store.database.queue.inDatabase(StoreDatabase.reportedTransactions).first { $0.record.transaction.id == shared[1].transaction.id }?.entry)
        #expect(entry.in_app_ownership_type == "FAMILY_SHARED")
        #expect(entry.original_transaction_id == shared[0].transaction.id)
        #expect(Set(try app.credits().map(\.user)) == ["alice", "bob"])
        #expect(try app.credits().first { $0.user == "bob" }?.productId == Self.noAds)
        // The product list marks it as the family's, and the state catalog explains it.
        app.press(.escape)
        app.select(Self.noAds)
        #expect(app.screen().split(separator: "\n").contains { $0.contains("Remove Ads") && $0.contains("¥18") && $0.contains("Family") })
        #expect(app.state.visibleStateId == "family-shared")
        // Ink Theme is not family-shareable: only sandbox-1 owns it.
        #expect(try app.storeRecords().filter { $0.account == "sandbox-2" && $0.transaction.productId == Self.ink }.isEmpty)
    }

    @Test("verifyReceipt finds the family's entries among a receipt's few ids and among a long receipt's, the same ones")
    func sharedAmongManyIds() throws {
        let app = try aliceBoughtBobRestored()
        let shared = Set(try shared(app).map(\.transaction.id))
        let everyId = try app.storeRecords().map(\.transaction.id)
        let store = app.parties.store.database
        #expect(shared.count == 2)
        #expect(try store.familyShared(everyId) == shared)
        // Past the count bound one by one, the ids travel as one JSON array.
        let unknown = (1...StoreDatabase.idsBoundOneByOne).map { "9\($0)" }
        #expect(try store.familyShared(everyId + unknown) == shared)
        #expect(try store.familyShared(unknown).isEmpty)
    }

    @Test("a family member buying what the family owns gets Apple's 'already purchased' sheet and is charged nothing")
    func memberRebuyIsFree() throws {
        let app = try aliceBoughtBobRestored()
        app.press(.escape)
        app.select(Self.noAds)
        app.press(.enter)
        app.advance(0.5)
        #expect(app.screen().contains("You've already purchased this"))
        app.advance(5)
        let shared = try shared(app)
        #expect(shared.count == 3)
        #expect(shared.last?.transaction.originalTransactionId == shared.first?.transaction.id)
    }

    @Test("Apple refunds the buyer: the member's shared purchase is revoked too (REVOKE), and the backend takes both back")
    func refundRevokesTheFamilys() throws {
        let app = try aliceBoughtBobRestored()
        let bought = try #require(try app.storeRecords().first { $0.account == "sandbox-1" && $0.transaction.productId == Self.noAds })
        #expect(app.parties.store.refund(transactionId: bought.transaction.id) == bought.transaction.id)
        app.advance(1)
        let revoked = try app.parties.store.database.recentNotifications(limit: 10).filter { $0.notification.kind == .revoke }
        #expect(revoked.map(\.notification.transactionId) == [try shared(app).first?.transaction.id])
        #expect(Set(try app.revokedCredits().map(\.credit.user)) == ["alice", "bob"])
        #expect(try app.credits().filter { $0.productId == Self.noAds }.isEmpty)
        // Nothing left to restore for the member.
        app.press(.escape)
        app.runtime.send(.intent(.restorePurchases))
        app.advance(5)
        #expect(app.screen().contains("Nothing to restore"))
    }

    /// Explorer seed 955674: "Apple refunds bob's latest payment" refunded the member's shared transaction, which
    /// Apple never charged, and the member then paid for what it had owned through the family at the time.
    @Test("a member's shared purchase charged nothing: Apple has nothing of the member's to refund, decline or reverse")
    func memberHasNothingToRefund() throws {
        let app = try aliceBoughtBobRestored()
        let shared = try shared(app)
        // bob's phone has sandbox-2 signed in: the refund keys act on its latest charge, and it has none.
        #expect(app.parties.store.refund(account: "bob") == nil)
        #expect(app.parties.store.declineRefund(account: "bob") == nil)
        for transaction in shared.map(\.transaction.id) {
            #expect(app.parties.store.refund(transactionId: transaction) == nil)
            #expect(app.parties.store.declineRefund(transactionId: transaction) == nil)
        }
        #expect(try app.storeDetails(shared.map(\.transaction.id)).values.allSatisfy { $0.cancellationDate == nil })
        #expect(try app.parties.store.database.recentNotifications(limit: 20).allSatisfy { ![.refund, .refundDeclined, .revoke].contains($0.notification.kind) })
        // A member leaving revokes the share (reason 0): that is no refund Apple can reverse.
        #expect(app.parties.store.leaveFamily("sandbox-2"))
        #expect(app.parties.store.reverseRefund(account: "bob") == nil)
        #expect(app.parties.store.reverseRefund(transactionId: shared[0].transaction.id) == nil)
        // The buyer's own charge is still Apple's to refund.
        let bought = try #require(try app.storeRecords().first { $0.account == "sandbox-1" && $0.transaction.productId == Self.noAds })
        #expect(app.parties.store.refund(transactionId: bought.transaction.id) == bought.transaction.id)
    }

    @Test("a member leaving the family loses what the family shared with them; the buyer keeps it")
    func leavingRevokes() throws {
        let app = try aliceBoughtBobRestored()
        #expect(app.parties.store.leaveFamily("sandbox-2"))
        app.advance(1)
        // StoreKit told the app (didRevokeEntitlementsForProductIdentifiers), and the product is no longer the family's.
        #expect(app.screen().contains("Family Sharing ended: no longer shared with you"))
        #expect(app.state.visibleStateId == "hud-family-revoked")
        app.press(.escape)
        #expect(!app.screen().contains("Family"))
        #expect(try app.revokedCredits().map(\.credit.user) == ["bob"])
        #expect(try app.credits().filter { $0.productId == Self.noAds }.map(\.user) == ["alice"])
        #expect(!app.parties.store.leaveFamily("sandbox-2"))
        // Joining again shares it again, as a new transaction.
        #expect(app.parties.store.joinFamily(["sandbox-1", "sandbox-2"]))
        #expect(try shared(app).filter { $0.transaction.state == .purchased }.count == 2)
    }
}
