import AppleVocabulary
import Foundation

/// One page of Get Transaction History, as Apple pages it: the transactions sorted by when each last changed (its
/// purchase, or its refund or revocation since), twenty at a time. The revision names the last one given, so a server
/// that keeps it and asks again later gets what changed since: a transaction refunded after it was read comes again,
/// with its revocation.
struct HistoryPage: Sendable {
    let items: ArraySlice<AppleTransaction>
    let revision: String
    let hasMore: Bool

    static let size = 20

    init(_ transactions: [AppleTransaction], descending: Bool, revision: String?) throws(APIErrorBody) {
        let after: Position?
        if let revision {
            guard let position = Position(revision) else { throw .invalidRevision }
            after = position
        } else {
            after = nil
        }
        var ordered = transactions.map { (position: Position($0), transaction: $0) }.sorted { $0.position < $1.position }
        if descending { ordered.reverse() }
        let rest = ordered.filter { entry in after.map { descending ? entry.position < $0 : $0 < entry.position } ?? true }
        let page = rest.prefix(Self.size)
        items = ArraySlice(page.map(\.transaction))
        self.revision = (page.last?.position ?? after ?? (descending ? Position.end : Position.start)).text
        hasMore = rest.count > page.count
    }

    /// Where a transaction stands in the history: when it last changed, then its id.
    struct Position: OpaqueToken, Comparable, Sendable {
        let changed: Int64
        let id: Int64

        static let start = Position(changed: 0, id: 0)
        static let end = Position(changed: .max, id: .max)

        init(changed: Int64, id: Int64) {
            self.changed = changed
            self.id = id
        }

        init(_ transaction: AppleTransaction) {
            let entry = transaction.entry
            changed = max(Int64(entry.purchase_date_ms) ?? 0, entry.cancellation_date_ms.flatMap { Int64($0) } ?? 0)
            id = Int64(entry.transaction_id) ?? 0
        }

        static func < (lhs: Position, rhs: Position) -> Bool { (lhs.changed, lhs.id) < (rhs.changed, rhs.id) }
    }
}
