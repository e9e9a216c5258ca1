import Foundation
import IAPCore
import Testing

/// Sends actions to the core and checks, for each, the whole state afterwards and the exact effects, in the spirit of
/// TCA's TestStore: the test says every change it expects, so a change it did not say fails it.
struct TestStore {
    private(set) var state: AppState
    var now: Date

    init(_ state: AppState, now: Date) {
        self.state = state
        self.now = now
    }

    /// Reduces `action`; `update` turns the state before into the state expected after, and `effects` are the exact
    /// effects expected, in order.
    mutating func send(_ action: Action, effects expected: [Effect] = [], sourceLocation: SourceLocation = #_sourceLocation,
                       _ update: (inout AppState) -> Void = { _ in }) {
        var wanted = state
        wanted.now = now
        update(&wanted)
        let effects = state.reduce(action, now: now)
        #expect(effects == expected, sourceLocation: sourceLocation)
        if state != wanted {
            let differences = Mirror(reflecting: state).children.compactMap { child -> String? in
                guard let label = child.label,
                      let expected = Mirror(reflecting: wanted).children.first(where: { $0.label == label }) else { return nil }
                let got = String(describing: child.value), want = String(describing: expected.value)
                return got == want ? nil : "\(label): expected \(want), got \(got)"
            }
            Issue.record("the state after \(action) differs: \(differences.joined(separator: "; "))", sourceLocation: sourceLocation)
        }
    }
}
