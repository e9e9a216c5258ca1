import Foundation
import IAPCore
import MockBackend
import MockStore

/// At launch: do the parties agree? Each keeps its own file, so a write one of them lost (a lost WAL, a restored
/// backup) shows as a disagreement: the store finished a paid transaction the backend has no record of.
enum PartyAgreement {
    /// How far back to look: a lost write loses the latest commits, and the check must cost nothing at launch.
    /// A restore is accounted for by the credit of the purchase it restores.
    static let recent = 50

    /// Read through the store's own connection: a second one, opened only for this, cost more than the check itself.
    static func alarms(store: MockPaymentQueue, backend: BackendDatabase) -> [Alarm] {
        guard let finished = try? store.latestFinishedPaid(limit: recent),
              let missing = try? backend.unaccounted(finished), !missing.isEmpty
        else { return [] }
        return [.creditMissing(transactionIds: missing.reversed(), ofLatest: finished.count)]
    }
}
