import Foundation
import Synchronization
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
        let text = String(decoding: try JSONEncoder().encode(steps), as: UTF8.self)
        Self.lastEncoded.withLock { $0 = (text, steps) }
        return text
    }

    static func decode(_ text: String?) -> StorePlan? {
        guard let text else { return nil }
        // A payment's plan is read back moments after it was written, by the timer that takes its step.
        let steps = lastEncoded.withLock { $0?.text == text ? $0?.steps : nil } ?? (try? JSONDecoder().decode([Step].self, from: Data(text.utf8)))
        guard let steps, !steps.isEmpty else { return nil }
        return StorePlan(steps: steps)
    }

    private static let lastEncoded = Mutex<(text: String, steps: [Step])?>(nil)
}

extension TransactionState: Codable {}
extension StoreError: Codable {}

// MARK: Apple's rules for a payment

/// What a payment's fault-free fate is replaced by, when a fault decides it (S10).
enum PaymentFate: Equatable {
    case charged
    case userCancels
    case askToBuy(declined: Bool)
    case failedThenPurchased
    case fails
}

extension StorePlan {
    /// What Apple decides, when a payment is added, will become of it at `due`. `owned`: the charge by which the account
    /// owns the product already (S7), or its subscription's chain; `subscription`: the payment's plan in its group.
    /// `refundAfter`: the `refund` fault's delay, asked only of a payment that will be charged.
    static func forPayment(due: Date, owned: String?, subscription: SubscriptionPlan?, fate: () -> PaymentFate,
                           refundAfter: () -> Double?) -> (plan: StorePlan, original: String?) {
        // What the account owns is never charged again: the App Store makes a regular `purchased` transaction of the
        // original purchase, charging nothing; a lower level in a group waits for the renewal.
        if let owned { return (StorePlan(steps: [Step(at: due, .purchased)]), owned) }
        switch subscription {
        case let .owned(original)?: return (StorePlan(steps: [Step(at: due, .purchased)]), original)
        case .changeAtRenewal?: return (StorePlan(steps: [Step(at: due, .failed, error: .changesAtRenewal)]), nil)
        case .charge?, .upgrade?, nil: break
        }
        var steps: [Step]
        switch fate() {
        case .charged: steps = [Step(at: due, .purchased)]
        case .userCancels: steps = [Step(at: due, .failed, error: .cancelled)]
        case let .askToBuy(declined):
            let answer = due.addingTimeInterval(MockPaymentQueue.askToBuyDecision)
            steps = [Step(at: due, .deferred), declined ? Step(at: answer, .failed, error: .declined) : Step(at: answer, .purchased)]
        case .failedThenPurchased:
            steps = [Step(at: due, .failed, error: .interrupted), Step(at: due.addingTimeInterval(MockPaymentQueue.interruptionResolved), .purchased, spawns: true)]
        case .fails: steps = [Step(at: due, .failed, error: .paymentFailed)]
        }
        if let last = steps.last, last.state == .purchased, !last.spawns, let delay = refundAfter() {
            steps.append(Step(at: last.date.addingTimeInterval(delay), .purchased, refunds: true))
        }
        return (StorePlan(steps: steps), nil)
    }
}

/// What a payment's due step becomes, by Apple's rules, when it is taken: the state it is given may change because of
/// what the account owns by then (S7), and a subscription's step starts, resumes, re-buys or changes its chain.
struct PaymentDecision: Equatable {
    enum Subscription: Equatable {
        case none
        /// A charge: starts, resumes or upgrades the chain.
        case charge
        /// Bought again while subscribed: a regular transaction in the chain, charging nothing.
        case boughtAgain(original: String)
        /// A lower or equal level: no charge, the next renewal changes the product.
        case changeAtRenewal
    }

    var state: TransactionState
    var error: StoreError?
    /// What it continues: an owned original, a chain.
    var original: String?
    var subscription: Subscription
    /// Apple's ONE_TIME_CHARGE: a charge for anything but an auto-renewable subscription.
    var isOneTimeCharge: Bool
    /// Money taken: what the account already owns, bought again, is free (no e-mail receipt, so no order id).
    var charges: Bool { isOneTimeCharge || subscription == .charge }

    /// `owned`: the account's charge of a product it keeps for ever, other than this one; `plan`: the subscription's plan
    /// in its group (nil for anything else, and for a payment of no account).
    init(step: StorePlan.Step, original: String?, isSubscription: Bool, owned: String?, plan: SubscriptionPlan?) {
        state = step.state
        error = step.error
        self.original = original
        subscription = .none
        if state == .purchased, let owned { self.original = owned }
        if state == .purchased, let plan {
            switch plan {
            case let .owned(chain):
                self.original = chain
                subscription = .boughtAgain(original: chain)
            case .changeAtRenewal:
                state = .failed
                error = .changesAtRenewal
            case .charge, .upgrade:
                subscription = .charge
            }
        }
        if plan != nil, state == .failed, error == .changesAtRenewal { subscription = .changeAtRenewal }
        isOneTimeCharge = state == .purchased && !isSubscription && self.original == nil
    }
}
