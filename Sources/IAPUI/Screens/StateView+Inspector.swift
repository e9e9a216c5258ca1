import Foundation
import IAPCore

/// The inspector: the three parties side by side, Apple's notifications and the timeline.
extension StateView {
    func inspectorColumns(_ view: InspectorView) -> InspectorColumns {
        let who = state.user ?? "—"
        let words = StoreKitWords(state.storeKit)
        // Whose keychain holds it comes right after the id: at 80 columns a third of the screen ends soon after.
        let store = view.storeQueue.map { transaction in
            let holder = view.holders[transaction.id].map { " " + $0 } ?? ""
            return ("\(transaction.id)\(holder) \(words.state(transaction.state)[lang]) \(words.accountLink(of: transaction))", theme.plain)
        }
        // StoreKit 2: what the Apple ID owns, as the app reads it, whichever app user the server says holds it.
        let owned = view.entitlements.map { entitlements in
            [("currentEntitlements (\(entitlements.count))", theme.dimmed)]
                + entitlements.map { (" \($0.id) \(state.product($0.productId)?.title[lang] ?? $0.productId)", theme.plain) }
        } ?? []
        let client = state.pendingOrders.map { order in
            let next = switch state.nextRetry(for: order) {
            case let .at(date): " " + nextRetryWords(at: date)
            case .putOff: " " + Text.later(lang)
            case .asked: " " + Text.awaitingAnswer(lang)
            case .trigger where order.attempts > 0: " " + Text.retryOnTriggerShort(lang)
            case .trigger, .nextSession: ""
            }
            return ("\(order.transactionId) ×\(order.attempts)\(next)", theme.plain)
        }
        // Paid transactions no evidence ties to a buyer: support's to assign (I3).
        let unclaimed = state.unclaimed.map { ("\($0.id) \(Text.unclaimed(lang))", theme.bad) }
        let backend = view.credits.map { ("\($0.transactionId) +\($0.coins)", theme.good) } + view.support.flatMap { line -> [(String, Style)] in
            switch line {
            case let .retryingApple(id, attempts, status): return [("\(id) \(Text.retryingApple(lang)) ×\(attempts) (\(status))", theme.waiting)]
            case let .clientAlarm(kind, user, text): return [("\(Text.clientAlarms(lang)) \(kind) \(user ?? "—"): \(text)", theme.bad)]
            case let .replay(id, by, first): return [("\(id) \(Text.replayed(lang)) \(by) (\(first))", theme.waiting)]
            case let .unclaimed(seen):
                // One under the other, as the desk compares them: Apple's record, the app's order, the Apple ID's other orders.
                let order = seen.orderId.map { "\($0) \(seen.orderOwner ?? "?")" } ?? "∅"
                let others = seen.appleIdOrderOwners.isEmpty ? "∅" : seen.appleIdOrderOwners.joined(separator: ", ")
                return [("\(seen.transactionId)", theme.bad), (" Apple ID \(seen.appleId ?? "?")", theme.bad),
                        (" \(Text.orderOf(lang)) \(order)", theme.bad), (" \(Text.appleIdOrders(lang)) \(others)", theme.bad)]
            case let .moved(productId, from, to, policy):
                // The product, who from and to, and the policy, one under the other: a column is a third of the screen.
                return [(state.product(productId)?.title[lang] ?? productId, theme.waiting), (" \(from) → \(to)", theme.waiting),
                        (" (\(Text.restorePolicy(named: policy)?(lang) ?? policy))", theme.waiting)]
            }
        }
        let backendColumn = if let elsewhere = view.creditsKeptAt {
            InspectorColumns.Column(heading: "\(Text.inspectorBackend(lang)) \(who)",
                                    rows: [(Text.creditsKeptAt(lang), theme.dimmed), (elsewhere, theme.plain)])
        } else {
            InspectorColumns.Column(heading: "\(Text.inspectorBackend(lang)) \(who) (\(view.creditTotal))", rows: backend,
                                    unread: view.creditTotal - view.credits.count)
        }
        return InspectorColumns(columns: [
            InspectorColumns.Column(heading: "\(words.queue[lang]) (\(view.storeTotal))", rows: store + owned,
                                    unread: view.storeTotal - view.storeQueue.count),
            InspectorColumns.Column(heading: "\(Text.inspectorClient(lang)) \(who) (\(state.pendingCount))", rows: client + unclaimed,
                                    unread: state.pendingCount - state.pendingOrders.count),
            backendColumn,
        ], theme: theme)
    }

    func timeline(_ view: InspectorView) -> TimelinePane {
        let start = view.timelineOrigin ?? view.timeline.first?.at ?? state.now
        return TimelinePane(heading: Text.inspectorTimeline(lang),
                            entries: view.timeline.map { (Elapsed.text($0.at.timeIntervalSince(start)), $0.text) }, theme: theme,
                            pagesBack: state.timelinePagesBack)
    }

    func notifications(_ view: InspectorView) -> TimelinePane {
        // One line each: a few rows over the timeline, where an entry wrapped past them would leave them blank.
        TimelinePane(heading: Text.inspectorNotifications(lang), entries: view.notifications.map { ("", $0.row(lang)) }, theme: theme, wraps: false)
    }
}
