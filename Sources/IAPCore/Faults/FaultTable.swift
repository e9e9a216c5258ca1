extension Fault {
    /// What VALUE a fault takes, checked where it is given (`--fault`, a script) so that a party never sees a bad one.
    public enum Value: Sendable, Equatable {
        case none
        /// Seconds; fractions allowed.
        case seconds(ClosedRange<Double>)
        /// A whole number in the range; `meaning` says what it counts.
        case whole(ClosedRange<Int>, meaning: String)
        /// One of these words.
        case word([String])

        /// What VALUE means, in the words of `iapsim faults`.
        public var help: String? {
            switch self {
            case .none: nil
            case .seconds: "seconds"
            case let .whole(_, meaning): meaning
            case let .word(words): words.joined(separator: "|")
            }
        }
    }

    /// One fault's row: whose behaviour it changes, what VALUE it takes, and the VALUE used when none is given.
    public struct Rule: Sendable, Equatable {
        public let party: Party
        public let value: Value
        /// nil exactly when the fault takes no value.
        public let defaultValue: String?

        init(_ party: Party, _ value: Value = .none, default defaultValue: String? = nil) {
            self.party = party
            self.value = value
            self.defaultValue = defaultValue
        }
    }

    /// The fault table. An exhaustive switch: a new fault does not compile until it has its row.
    public var rule: Rule {
        switch self {
        case .paymentsDisabled: Rule(.store)
        case .productsEmpty: Rule(.store)
        case .productsFail: Rule(.store)
        case .productsSlow: Rule(.store, .seconds(0...3600), default: "8")
        case .userCancels: Rule(.store)
        case .purchaseFails: Rule(.store)
        case .askToBuy: Rule(.store, .word(["approve", "decline"]), default: "approve")
        case .observerDelayed: Rule(.store, .seconds(0...3600), default: "8")
        case .observerLost: Rule(.store)
        case .emptyApplicationUsername: Rule(.store)
        case .receiptEmpty: Rule(.store)
        case .failedThenPurchased: Rule(.store)
        case .duplicateCallback: Rule(.store)
        case .finishNotFound: Rule(.store)
        case .billingFails: Rule(.store, .whole(1...99, meaning: "billing attempts that fail, one a day (past the grace period the service stops; Apple gives up after 60 days)"),
                                 default: "99")
        case .renewalWhileClosed: Rule(.store)
        case .refund: Rule(.store, .seconds(0...31_536_000), default: "30")
        case .restoreFails: Rule(.store)
        case .backendDown: Rule(.backend)
        case .backendTimeout: Rule(.backend)
        case .backend5xx: Rule(.backend, .whole(500...599, meaning: "HTTP status"), default: "503")
        case .backendSlow: Rule(.backend, .seconds(0...3600), default: "8")
        case .verifyStatus: Rule(.backend, .whole(0...21199, meaning: "verifyReceipt status, e.g. 21002 21003 21004 21005 21007 21009 21010 21100"),
                                 default: "21003")
        case .verificationPending: Rule(.backend, .whole(0...100, meaning: "answers before the real one"), default: "3")
        case .orderMissing: Rule(.backend)
        case .productMismatch: Rule(.backend)
        case .ledgerByTransactionId: Rule(.backend)
        case .crashAt: Rule(.app, .word(Effect.crashPoints), default: "verify")
        case .background: Rule(.app)
        case .jailbroken: Rule(.app)
        }
    }
}
