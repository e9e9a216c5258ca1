import Foundation
import DataFiles
import GRDB
import IAPCore
import MockBackend

/// At launch: do the parties agree? Each keeps its own file, so a write one of them lost (a lost WAL, a restored
/// backup) shows as a disagreement: the store finished a paid transaction the backend has no record of.
enum PartyAgreement {
    /// How far back to look: a lost write loses the latest commits, and the check must cost nothing at launch.
    /// A restore is accounted for by the credit of the purchase it restores.
    static let recent = 50

    static func alarms(store path: String, backend: BackendDatabase) -> [Alarm] {
        guard let store = try? DataFile.readOnly(path),
              let finished = try? store.inDatabase({ db in
                  try String.fetchAll(db, sql: """
                      SELECT COALESCE(originalTransactionId, id) FROM storeTransaction WHERE finished = 1 AND state IN ('purchased', 'restored')
                      ORDER BY rowid DESC LIMIT ?
                      """, arguments: [recent])
              }),
              let missing = try? backend.unaccounted(finished), !missing.isEmpty
        else { return [] }
        return [.creditMissing(transactionIds: missing.reversed())]
    }
}
