/// Faults QA arm on purpose: SPEC's catalog. Each is sticky (until disarmed) or one-shot (gone once it fires).
/// What each one is, takes and belongs to is one row of `Fault.rule`; what it says to people is the screens' copy.
public enum Fault: String, Sendable, Equatable, CaseIterable, Comparable {
    // The store
    case paymentsDisabled = "payments-disabled"
    case productsEmpty = "products-empty"
    case productsFail = "products-fail"
    case productsSlow = "products-slow"
    case userCancels = "user-cancels"
    case purchaseFails = "purchase-fails"
    case askToBuy = "ask-to-buy"
    case observerDelayed = "observer-delayed"
    case observerLost = "observer-lost"
    case emptyApplicationUsername = "empty-application-username"
    case receiptEmpty = "receipt-empty"
    case unverifiedTransaction = "unverified-transaction"
    case failedThenPurchased = "failed-then-purchased"
    case duplicateCallback = "duplicate-callback"
    case finishNotFound = "finish-not-found"
    case billingFails = "billing-fails"
    case renewalWhileClosed = "renewal-while-closed"
    case refund
    case restoreFails = "restore-fails"
    // Apple's notifications to the `--notify` server
    case notificationTwice = "notification-twice"
    case notificationOutOfOrder = "notification-out-of-order"
    case notificationLost = "notification-lost"
    case notificationDelayed = "notification-delayed"
    // The backend
    case backendDown = "backend-down"
    case backendTimeout = "backend-timeout"
    case backend5xx = "backend-5xx"
    case backendSlow = "backend-slow"
    case verifyStatus = "verify-status"
    case verificationPending = "verification-pending"
    case orderMissing = "order-missing"
    case productMismatch = "product-mismatch"
    case ledgerByTransactionId = "ledger-by-transaction-id"
    // The app
    case crashAt = "crash-at"
    case background
    case jailbroken

    /// Whose behaviour the fault changes.
    public enum Party: String, Sendable {
        case store, backend, app
    }

    public var party: Party { rule.party }

    /// The value used when none is given; nil for faults that take none.
    public var defaultValue: String? { rule.defaultValue }

    /// What VALUE means, for `iapsim faults` and the errors of `--fault`.
    public var valueHelp: String? { rule.value.help }

    public static func < (a: Fault, b: Fault) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

extension Fault {
    /// What VALUE a fault takes, checked where it is given (`--fault`, a script) so that a party never sees a bad one.
    public enum Value: Sendable, Equatable {
        case none
        /// Seconds; fractions allowed.
        case seconds(ClosedRange<Double>)
        /// A whole number in the range; `meaning` says what it counts, `examples` are the telling ones.
        case whole(ClosedRange<Int>, meaning: String, examples: [Int] = [])
        /// One of these words.
        case word([String])

        /// What VALUE means, in the words of `iapsim faults`.
        public var help: String? {
            switch self {
            case .none: nil
            case .seconds: "seconds"
            case let .whole(_, meaning, _): meaning
            case let .word(words): words.joined(separator: "|")
            }
        }

        /// Which values are taken, for the message of a fault given with `=` and nothing after it.
        var range: String {
            switch self {
            case .none: ""
            case let .seconds(range): "\(Int(range.lowerBound)) to \(Int(range.upperBound)) seconds"
            case let .whole(range, meaning, _): "\(range.lowerBound) to \(range.upperBound), \(meaning)"
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

        /// What the fault panel's ←/→ step through, in order: every word, or a few telling numbers with the default
        /// among them (none that would change nothing; any other value is still `--fault NAME=VALUE`'s).
        public var choices: [String] {
            let numbers: [Double]
            switch value {
            case .none: return []
            case let .word(words): return words
            case let .seconds(range): numbers = [1, 3, 8, 30, 60, 600, 3600, 86_400].filter(range.contains)
            case let .whole(range, _, examples): numbers = (examples.isEmpty ? [range.lowerBound, range.upperBound] : examples).map(Double.init)
            }
            let all = Set(numbers + (defaultValue.flatMap(Double.init).map { [$0] } ?? []))
            return all.sorted().map { $0.rounded() == $0 ? String(Int($0)) : String($0) }
        }
    }

    /// The verifyReceipt statuses a team's server must tell apart.
    private static let telling = [21002, 21003, 21004, 21005, 21007, 21008, 21009, 21010, 21100]

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
        case .unverifiedTransaction: Rule(.store, .word(SignedTransactionFlaw.allCases.map(\.rawValue)), default: SignedTransactionFlaw.signature.rawValue)
        case .failedThenPurchased: Rule(.store)
        case .duplicateCallback: Rule(.store)
        case .finishNotFound: Rule(.store)
        case .billingFails: Rule(.store, .whole(1...99, meaning: "billing attempts that fail, one a day (past the grace period the service stops; Apple gives up after 60 days)",
                                                examples: [1, 3, 20]), default: "99")
        case .renewalWhileClosed: Rule(.store)
        case .refund: Rule(.store, .seconds(0...31_536_000), default: "30")
        case .restoreFails: Rule(.store)
        case .notificationTwice: Rule(.store)
        case .notificationOutOfOrder: Rule(.store)
        case .notificationLost: Rule(.store)
        case .notificationDelayed: Rule(.store, .seconds(0...31_536_000), default: "3600")
        case .backendDown: Rule(.backend)
        case .backendTimeout: Rule(.backend)
        case .backend5xx: Rule(.backend, .whole(500...599, meaning: "HTTP status", examples: [500, 502, 504]), default: "503")
        case .backendSlow: Rule(.backend, .seconds(0...3600), default: "8")
        case .verifyStatus: Rule(.backend, .whole(0...21199, meaning: "verifyReceipt status, e.g. " + Self.telling.map(String.init).joined(separator: " "),
                                                  examples: Self.telling), default: "21003")
        case .verificationPending: Rule(.backend, .whole(0...100, meaning: "answers before the real one", examples: [1, 10]), default: "3")
        case .orderMissing: Rule(.backend)
        case .productMismatch: Rule(.backend)
        case .ledgerByTransactionId: Rule(.backend)
        case .crashAt: Rule(.app, .word(Effect.crashPoints), default: "verify")
        case .background: Rule(.app)
        case .jailbroken: Rule(.app)
        }
    }
}
