/// Faults QA arm on purpose: SPEC's catalog. Each is sticky (until disarmed) or one-shot (gone once it fires).
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
    case failedThenPurchased = "failed-then-purchased"
    case duplicateCallback = "duplicate-callback"
    case finishNotFound = "finish-not-found"
    // The backend
    case backendDown = "backend-down"
    case backendTimeout = "backend-timeout"
    case backend5xx = "backend-5xx"
    case backendSlow = "backend-slow"
    case verifyStatus = "verify-status"
    case verificationPending = "verification-pending"
    case orderMissing = "order-missing"
    case productMismatch = "product-mismatch"
    // The app
    case crashAt = "crash-at"
    case background
    case jailbroken

    public enum Party: String, Sendable {
        case store, backend, app

        public func label(_ lang: Language) -> String {
            guard lang == .zh else { return rawValue }
            switch self {
            case .store: return "商店"
            case .backend: return "后端"
            case .app: return "应用"
            }
        }
    }

    public var party: Party {
        switch self {
        case .paymentsDisabled, .productsEmpty, .productsFail, .productsSlow, .userCancels, .purchaseFails, .askToBuy,
             .observerDelayed, .observerLost, .emptyApplicationUsername, .receiptEmpty, .failedThenPurchased,
             .duplicateCallback, .finishNotFound: .store
        case .backendDown, .backendTimeout, .backend5xx, .backendSlow, .verifyStatus, .verificationPending,
             .orderMissing, .productMismatch: .backend
        case .crashAt, .background, .jailbroken: .app
        }
    }

    /// The value used when none is given; nil for faults that take none.
    public var defaultValue: String? {
        switch self {
        case .productsSlow, .observerDelayed, .backendSlow: "8"
        case .askToBuy: "approve"
        case .backend5xx: "503"
        case .verifyStatus: "21003"
        case .verificationPending: "3"
        case .crashAt: "verify"
        default: nil
        }
    }

    /// The numbers VALUE may take; nil for faults whose value is a word (or that take none).
    public var valueRange: ClosedRange<Double>? {
        switch self {
        case .productsSlow, .observerDelayed, .backendSlow: 0...3600
        case .backend5xx: 500...599
        case .verifyStatus: 0...21199
        case .verificationPending: 0...100
        default: nil
        }
    }

    /// Seconds may be fractional; statuses and counts are whole numbers.
    var takesFraction: Bool { self == .productsSlow || self == .observerDelayed || self == .backendSlow }

    /// What VALUE means, for `iapsim faults` and the panel.
    public var valueHelp: String? {
        switch self {
        case .productsSlow, .observerDelayed, .backendSlow: "seconds"
        case .askToBuy: "approve|decline"
        case .backend5xx: "HTTP status"
        case .verifyStatus: "verifyReceipt status, e.g. 21002 21003 21005 21007 21010"
        case .verificationPending: "answers before the real one"
        case .crashAt: Effect.crashPoints.joined(separator: "|")
        default: nil
        }
    }

    public var summary: String {
        switch self {
        case .paymentsDisabled: "canMakePayments is off on this device"
        case .productsEmpty: "the product request answers an empty list"
        case .productsFail: "the product request fails"
        case .productsSlow: "the product request answers after VALUE seconds"
        case .userCancels: "the user taps Cancel on the payment sheet"
        case .purchaseFails: "the store fails every payment"
        case .askToBuy: "Ask to Buy: the payment waits for a parent, who decides VALUE 10 s later"
        case .observerDelayed: "the observer hears of a payment VALUE seconds after it went through"
        case .observerLost: "the observer never hears of the payment until the app is relaunched"
        case .emptyApplicationUsername: "the store returns transactions without applicationUsername"
        case .receiptEmpty: "the app receipt is empty (as right after a purchase, before a refresh)"
        case .failedThenPurchased: "the payment first reports failed, then purchased 2 s later (interrupted purchase)"
        case .duplicateCallback: "the observer hears of each payment twice"
        case .finishNotFound: "finishTransaction cannot find the transaction (it stays in the queue)"
        case .backendDown: "the backend is unreachable: orders cannot be created or verified"
        case .backendTimeout: "the backend does the work but the answer never arrives (timeout after 10 s)"
        case .backend5xx: "the backend answers HTTP VALUE without doing anything"
        case .backendSlow: "the backend answers VALUE seconds later than usual"
        case .verifyStatus: "Apple's verifyReceipt answers status VALUE at every endpoint"
        case .verificationPending: "the backend answers \"still verifying\" VALUE times before the real answer; the client polls"
        case .orderMissing: "the backend has lost the order: it credits the requester and makes a new one"
        case .productMismatch: "the order names another product than the one paid: the backend credits what was paid"
        case .crashAt: "the app dies (as kill -9) just before its next VALUE step"
        case .background: "the app is in the background: no automatic retries until it comes back"
        case .jailbroken: "the device is jailbroken: the app refuses purchases"
        }
    }

    /// What the fault does, in the app's language (the panel) or English (`iapsim faults`).
    public func summary(_ lang: Language) -> String {
        lang == .en ? summary : summaryZh
    }

    private var summaryZh: String {
        switch self {
        case .paymentsDisabled: "此设备关闭了 canMakePayments"
        case .productsEmpty: "商品请求返回空列表"
        case .productsFail: "商品请求失败"
        case .productsSlow: "商品请求 VALUE 秒后才返回"
        case .userCancels: "用户在支付界面点了取消"
        case .purchaseFails: "商店让每笔支付都失败"
        case .askToBuy: "家长批准购买:支付等家长决定,10 秒后结果为 VALUE"
        case .observerDelayed: "支付完成 VALUE 秒后观察者才收到通知"
        case .observerLost: "观察者收不到支付通知,直到应用重启"
        case .emptyApplicationUsername: "商店返回的交易没有 applicationUsername"
        case .receiptEmpty: "应用收据为空(如刚购买后、刷新前)"
        case .failedThenPurchased: "支付先报告失败,2 秒后又报告已购买(购买被中断)"
        case .duplicateCallback: "每笔支付观察者都收到两次通知"
        case .finishNotFound: "finishTransaction 找不到交易(交易留在队列中)"
        case .backendDown: "后端不可达:无法创建订单,也无法验证"
        case .backendTimeout: "后端做完了处理,但回应没有送达(10 秒后超时)"
        case .backend5xx: "后端什么也不做,直接返回 HTTP VALUE"
        case .backendSlow: "后端比平常晚 VALUE 秒回应"
        case .verifyStatus: "Apple 的 verifyReceipt 在每个地址都返回状态 VALUE"
        case .verificationPending: "后端先回答 VALUE 次“仍在验证”,再给出真实结果;客户端轮询"
        case .orderMissing: "后端丢失了订单:为请求者入账并新建订单"
        case .productMismatch: "订单上的商品与实际付款的不同:后端按实付商品入账"
        case .crashAt: "应用在下一次 VALUE 步骤前崩溃(如 kill -9)"
        case .background: "应用在后台:回到前台前不会自动重试"
        case .jailbroken: "设备已越狱:应用拒绝购买"
        }
    }

}

/// How one fault is armed.
public struct FaultArm: Sendable, Equatable {
    public var value: String?
    /// Disarms itself the first time it fires.
    public var once: Bool

    public init(value: String? = nil, once: Bool = false) {
        self.value = value
        self.once = once
    }
}

/// The faults armed right now, with their values. Reads like a set of faults.
public struct ArmedFaults: Sendable, Equatable, Sequence, ExpressibleByArrayLiteral {
    public private(set) var arms: [Fault: FaultArm] = [:]

    public init(arrayLiteral faults: Fault...) {
        for fault in faults { insert(fault) }
    }

    public init<S: Sequence>(_ faults: S) where S.Element == Fault {
        for fault in faults { insert(fault) }
    }

    public var isEmpty: Bool { arms.isEmpty }

    public func contains(_ fault: Fault) -> Bool { arms[fault] != nil }

    /// The armed value, else the fault's default; nil when not armed.
    public func value(_ fault: Fault) -> String? {
        guard let arm = arms[fault] else { return nil }
        return arm.value ?? fault.defaultValue
    }

    public func seconds(_ fault: Fault) -> Double? {
        value(fault).flatMap(Double.init)
    }

    public func arm(_ fault: Fault) -> FaultArm? { arms[fault] }

    public mutating func insert(_ fault: Fault, _ arm: FaultArm = FaultArm()) {
        arms[fault] = arm
    }

    public mutating func remove(_ fault: Fault) {
        arms[fault] = nil
    }

    public func makeIterator() -> IndexingIterator<[Fault]> {
        arms.keys.sorted().makeIterator()
    }

    /// `NAME[=VALUE][:once]`, as `--fault` and scripts write it.
    public static func parse(_ text: String) throws(FaultSyntaxError) -> (Fault, FaultArm) {
        var spec = Substring(text.trimmingCharacters(in: .whitespaces))
        var once = false
        if spec.hasSuffix(":once") {
            once = true
            spec = spec.dropLast(5)
        }
        let parts = spec.split(separator: "=", maxSplits: 1).map(String.init)
        guard let name = parts.first, let fault = Fault(rawValue: name) else {
            throw FaultSyntaxError(message: "unknown fault \"\(parts.first ?? "")\" (`iapsim faults` lists them)")
        }
        let value = parts.count > 1 ? parts[1] : nil
        if let value {
            guard fault.defaultValue != nil else { throw FaultSyntaxError(message: "\(fault.rawValue) takes no value") }
            if fault == .askToBuy, value != "approve", value != "decline" {
                throw FaultSyntaxError(message: "ask-to-buy takes approve or decline, not \"\(value)\"")
            }
            if fault == .crashAt, !Effect.crashPoints.contains(value) {
                throw FaultSyntaxError(message: "crash-at takes one of \(Effect.crashPoints.joined(separator: ", ")), not \"\(value)\"")
            }
            if let range = fault.valueRange {
                // Checked at the edge: a non-finite or huge value would end up as a date in a party's database.
                guard let number = Double(value), number.isFinite, range.contains(number), fault.takesFraction || number.rounded() == number else {
                    throw FaultSyntaxError(message: "\(fault.rawValue) takes \(fault.takesFraction ? "" : "a whole number ")"
                        + "\(Int(range.lowerBound)) to \(Int(range.upperBound)) (\(fault.valueHelp ?? "")), not \"\(value)\"")
                }
            }
        }
        return (fault, FaultArm(value: value, once: once))
    }

    /// How the fault reads on a badge: `name`, or `name=value` with the value in force (given or default),
    /// with `·once` when one-shot.
    public func label(_ fault: Fault) -> String {
        guard let arm = arms[fault] else { return fault.rawValue }
        return fault.rawValue + (value(fault).map { $0.isEmpty ? "" : "=\($0)" } ?? "") + (arm.once ? "·once" : "")
    }
}

public struct FaultSyntaxError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

extension Fault {
    public static func < (a: Fault, b: Fault) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
