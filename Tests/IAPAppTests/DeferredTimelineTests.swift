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

/// From a QA walk: with the backend down, f was followed by "fault fired: backend-down" twice, while the key's line
/// named one call to the backend (the verify): the account's refresh, the second, was not told.
@Suite("The timeline names every call a fault can fire on")
struct FaultCauseTimelineTests {
    @Test("f with the backend down: the key's line names the verify and the account's refresh, one fault line each")
    func foregroundNamesBothCalls() throws {
        let app = try Harness(user: "alice", faults: [.backendDown])
        app.advance(0.5)
        app.press(.enter)
        app.advance(3)
        let before = app.session.timeline.entries(.en).count
        app.press(.char("f"))
        app.advance(0.5)
        let told = app.session.timeline.entries(.en).map(\.text).dropFirst(before)
        let key = try #require(told.first { $0.hasPrefix("key f") }, "\(told)")
        #expect(key.contains("verify 1000000001") && key.contains("refresh alice's account"), "\(key)")
        #expect(told.filter { $0 == "fault fired: backend-down" }.count == 2, "\(told)")
        let zh = app.session.timeline.entries(.zh).map(\.text).dropFirst(before)
        #expect(zh.contains { $0.contains("刷新 alice 的账户") }, "\(zh)")
        // Said whole on an 80-column screen too: a line longer than the pane goes on under itself, past the clock
        // (found in a QA walk: "… refresh alice'…").
        app.press(.char("i"))
        let screen = app.screen(width: 80, height: 32)
        #expect(screen.contains("refresh alice's") && screen.contains("account"), "\(screen)")
        let lines = screen.split(separator: "\n")
        let keyLine = try #require(lines.firstIndex { $0.contains("key f → verify 1000000001") }, "\(screen)")
        let column = lines[keyLine].distance(from: lines[keyLine].startIndex, to: lines[keyLine].range(of: "key f")!.lowerBound)
        #expect(lines[keyLine + 1].prefix(column).allSatisfy { $0 == " " } && lines[keyLine + 1].dropFirst(column).first != " ", "\(screen)")
        #expect(!lines.contains { $0.contains("key f") && $0.contains("…") }, "\(screen)")
    }
}
