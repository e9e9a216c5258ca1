import Foundation
import IAPApp
import IAPCore
import Testing

/// From a newcomer's walk of the fault panel: an Ask to Buy payment was told as deferred at the payment, and again each
/// time the store's queue was read while it waited.
@Suite("The timeline tells an Ask to Buy payment deferred once")
struct DeferredTimelineTests {
    @Test("waiting for the parent: `deferred` once in the timeline, in StoreKit 1 as in 2, then the approval", arguments: StoreKitMode.allCases)
    func deferredOnce(storeKit: StoreKitMode) throws {
        let app = try Harness(user: "alice", faults: [.askToBuy], storeKit: storeKit)
        app.advance(0.5)
        app.press(.enter)
        app.advance(2)
        app.press(.escape)
        // The queue is read again while the parent has not decided: a relaunch's first reading, a foreground.
        app.runtime.send(.intent(.foreground))
        app.advance(2)
        let told = app.session.timeline.entries(.en).map(\.text)
        // StoreKit 2 says Apple's word for it: purchase(options:) answers pending.
        let deferred = told.filter { $0.contains(storeKit == .one ? "deferred" : "→ pending") }
        #expect(deferred.count == 1, "\(told.joined(separator: "\n"))")
        app.advance(12)
        #expect(try app.credits().count == 1)
    }
}
