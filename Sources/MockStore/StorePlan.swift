import Foundation
import IAPCore

/// What Apple has already decided will happen to a transaction later (S10): the second half of an interrupted
/// purchase, a parent's Ask to Buy answer, the charge going through. Written with the transaction, so it happens
/// on the store's clock whether or not the app is running, and a fault that decided it stays decided.
struct StorePlan: Codable, Equatable {
    struct Step: Codable, Equatable {
        /// When it happens, on the store's clock (seconds since 1970).
        let at: Double
        let state: TransactionState
        let error: StoreError?
        /// True: the step is a new transaction for the same payment (an interrupted purchase's purchased half).
        let spawns: Bool
        /// True: Apple refunds the transaction at this step (the `refund` fault); its state stays.
        let refunds: Bool?

        init(at date: Date, _ state: TransactionState, error: StoreError? = nil, spawns: Bool = false, refunds: Bool? = nil) {
            at = date.timeIntervalSince1970
            self.state = state
            self.error = error
            self.spawns = spawns
            self.refunds = refunds
        }

        var date: Date { Date(timeIntervalSince1970: at) }
    }

    var steps: [Step]

    func encoded() throws -> String {
        String(decoding: try JSONEncoder().encode(steps), as: UTF8.self)
    }

    static func decode(_ text: String?) -> StorePlan? {
        guard let text, let steps = try? JSONDecoder().decode([Step].self, from: Data(text.utf8)), !steps.isEmpty else { return nil }
        return StorePlan(steps: steps)
    }
}

extension TransactionState: Codable {}
extension StoreError: Codable {}
