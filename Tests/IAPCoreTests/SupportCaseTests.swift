import IAPCore
import Testing

/// Whom support's records name (A3): only what is about this very payment, or an Apple ID that is one app user's.
@Suite("Support's case: whom the records name")
struct SupportCaseTests {
    @Test("an Apple ID behind several app users: its other payments' orders do not name who made this one")
    func otherOrdersNameNoOne() {
        // Explorer seed 51408: alice paid with sandbox-1 and her order id came back empty; the Apple ID's other payments
        // carried 小明's orders, and the desk gave alice's payment to 小明.
        let shared = SupportCase(transactionId: "1000000002", appleId: "sandbox-1", orderId: nil, orderOwner: nil, appleIdOrderOwners: ["小明"],
                                 appleIdsPerUser: false)
        #expect(shared.payer == nil)
        let ordered = SupportCase(transactionId: "1000000002", appleId: "sandbox-1", orderId: "ORD-000002", orderOwner: "alice",
                                  appleIdOrderOwners: ["小明"], appleIdsPerUser: false)
        #expect(ordered.payer == "alice")
        // Where every app user pays with an Apple ID of their own name, that name is the payer.
        let own = SupportCase(transactionId: "1000000002", appleId: "alice", orderId: nil, orderOwner: nil, appleIdOrderOwners: ["alice"],
                              appleIdsPerUser: true)
        #expect(own.payer == "alice")
    }
}
