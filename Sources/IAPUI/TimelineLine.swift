import Foundation
import IAPCore
import Synchronization

extension Timeline {
    /// One line of the timeline: told in words, or an action that is worded the first time the line is read. Most lines
    /// are never read, and wording each in both languages as it happened cost every action more than reducing it did.
    final class Line: Sendable {
        let at: Date
        private let telling: Mutex<Telling>

        enum Telling: Sendable {
            case told(Localized?)
            /// An action with the work it led to, in the StoreKit words of the moment; `then`: what follows the line
            /// (who logged in or out).
            case action(Action, [Effect], StoreKitWords, nothingDone: Localized?, then: Localized?)
        }

        init(at: Date, _ telling: Telling) {
            self.at = at
            self.telling = Mutex(telling)
        }

        /// The line's words, worded once; nil for an action that turns out to tell nothing.
        var text: Localized? {
            telling.withLock { telling in
                switch telling {
                case let .told(text):
                    return text
                case let .action(action, effects, words, nothingDone, then):
                    let text = Timeline.line(action, effects, at, words, nothingDone: nothingDone).map { Timeline.followed($0, by: then) }
                    telling = .told(text)
                    return text
                }
            }
        }
    }
}
