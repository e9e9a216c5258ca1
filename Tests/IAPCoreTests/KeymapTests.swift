import Foundation
import IAPCore
import Testing

/// The one table that dispatches keys, fills the hint bar and `?`, and names commands for scripts.
@Suite("The keymap")
struct KeymapTests {
    @Test("a space typed before a name is not part of it, so the name's 24 characters are all its own (found by QA: three spaces cut a 24-letter name to 21)")
    func leadingSpaces() {
        var state = AppState()
        for c in "   abcdefghijklmnopqrstuvwxyz" { _ = state.reduce(.key(.char(c)), now: state.now) }
        #expect(state.loginText == "abcdefghijklmnopqrstuvwx" && state.loginRefused)
        _ = state.reduce(.key(.enter), now: state.now)
        #expect(state.user == "abcdefghijklmnopqrstuvwx")
    }

    @Test("no key is bound twice in one context: the second binding could never be reached")
    func noKeyBoundTwice() {
        for context in KeyContext.allCases {
            var seen: [Key: Command] = [:]
            for binding in Keymap.bindings where binding.contexts.contains(context) {
                for key in binding.keys {
                    #expect(seen[key] == nil, "\(key) is bound to both \(seen[key].map { "\($0)" } ?? "") and \(binding.command) in \(context)")
                    seen[key] = binding.command
                }
            }
        }
    }

    @Test("l switches the language wherever a letter is not typed text or an answer: every panel, help and explanation too (found by QA: it did nothing in m, D, F, E or ?)")
    func languageAnywhere() {
        let typedOrAsked: Set<KeyContext> = [.loginEmpty, .login, .redeemSheet, .quitConfirm, .compensateConfirm]
        for context in KeyContext.allCases {
            #expect((Keymap.command(for: .char("l"), in: context) == .language) == !typedOrAsked.contains(context), "\(context)")
        }
    }

    @Test("every command has one binding, so a script's @name means one key")
    func oneBindingPerCommand() {
        for command in Command.allCases {
            #expect(Keymap.bindings.filter { $0.command == command }.count == 1, "\(command.rawValue)")
        }
    }

    @Test("a key bound in a context dispatches its command there, and the hint bar lists only bindings of that context")
    func dispatchFollowsTable() {
        for binding in Keymap.bindings {
            for context in binding.contexts {
                for key in binding.keys { #expect(Keymap.command(for: key, in: context) == binding.command) }
                if binding.hint != nil { #expect(Keymap.hints(for: context).contains { $0.command == binding.command }) }
            }
        }
    }

    @Test("an open panel without rows still offers its ways out on the hint bar; only its row keys wait for a row (found by QA: a user with no subscriptions saw an empty hint bar under the subscriptions panel)")
    func emptyPanelOffersWaysOut() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        var state = AppState(now: now)
        state.user = "alice"
        _ = state.reduce(.key(.char("m")), now: now)
        #expect(state.keyContext == .subscriptionList)
        let offered = Set(state.offeredHints.map(\.command))
        #expect(offered.isSuperset(of: [.back, .manageSubscriptions, .explain, .help, .quit]), "\(offered)")
        #expect(!offered.contains(.toggleAutoRenew))
        // Nor does it offer to move in a list with no row to move to (found by QA: "↓/j down" under "No subscriptions").
        #expect(offered.isDisjoint(with: [.up, .down, .pageUp, .pageDown, .first, .last]), "\(offered)")
    }
}
