import IAPCore

/// The store's side of the timeline and the inspector in the names of the StoreKit the app is written against:
/// support staff learn the words of the API the app they answer for calls (`SKPaymentQueue`'s in StoreKit 1;
/// `purchase(options:)`, `Transaction.updates`, `finish()` and `AppStore.sync()` in StoreKit 2).
struct StoreKitWords: Sendable {
    let mode: StoreKitMode
    /// The payment whose `purchase(options:)` call is waiting for its result, if any.
    let purchaseInFlight: Int64?

    init(_ mode: StoreKitMode, purchaseInFlight: Int64? = nil) {
        self.mode = mode
        self.purchaseInFlight = purchaseInFlight
    }

    private var two: Bool { mode == .two }

    /// What the store delivered to the app, a transaction at a time: in StoreKit 1 the payment queue's observer is
    /// told each transaction's state; in StoreKit 2 the purchase the app is waiting for is `purchase(options:)`'s
    /// result (`success` with its transaction, or none), and any other transaction arrives verified through the
    /// `updates` listener (which also hands over, once at launch, what is unfinished).
    func delivered(_ transactions: [Localized]) -> Localized {
        (two ? Localized("") : Localized(en: "store: ", zh: "商店:")) + transactions.joined(separator: Localized("; "))
    }

    func delivered(_ transaction: StoreTransaction) -> Localized {
        let id = transaction.id
        if transaction.error == .changesAtRenewal {
            // iapsim's payment for a downgrade or crossgrade ends without a charge: told as what it is, not as a failure.
            let planChanges = Localized(en: "the plan changes at the next renewal, nothing charged (changes-at-renewal)",
                                        zh: "下次续期时更换方案,现在不扣款(changes-at-renewal)")
            return (two ? Localized("purchase(options:) → ") : Localized("tx \(id): ")) + planChanges
        }
        guard two else {
            return Localized("tx \(id) ") + state(transaction.state) + (transaction.error.map { " (\($0.rawValue))" } ?? "")
        }
        let result = Localized("purchase(options:) → ")
        switch transaction.state {
        case .purchased where purchaseInFlight != nil && transaction.paymentId == purchaseInFlight:
            // The call's own result; the listener hears only what comes back some other way.
            return result + Localized("success (tx \(id))")
        case .purchased, .restored:
            return Localized(en: "Transaction.updates: tx \(id) ", zh: "Transaction.updates:tx \(id) ") + state(transaction.state)
        // purchase(options:) in flight, and its results other than success, carry no transaction.
        case .deferred: return result + Localized("pending")
        case .purchasing: return Localized(en: "purchase(options:) in flight", zh: "purchase(options:) 进行中")
        case .failed: return result + Localized(transaction.error.map(error) ?? "failed")
        }
    }

    var nothingUnfinished: Localized {
        two ? Localized(en: "Transaction.unfinished: none", zh: "Transaction.unfinished:无")
            : Localized(en: "store: nothing unfinished", zh: "商店:没有未完成的交易")
    }

    func products(_ count: Int) -> Localized {
        two ? Localized(en: "Product.products(for:): \(count) products", zh: "Product.products(for:):\(count) 个商品")
            : Localized(en: "store: \(count) products", zh: "商店:\(count) 个商品")
    }

    var productsFailed: Localized {
        two ? Localized(en: "Product.products(for:) failed", zh: "Product.products(for:) 失败")
            : Localized(en: "store: product request failed", zh: "商店:商品请求失败")
    }

    func restored(_ count: Int, to user: String) -> Localized {
        two ? Localized(en: "Transaction.currentEntitlements after AppStore.sync(): \(count) for \(user)",
                        zh: "AppStore.sync() 之后的 Transaction.currentEntitlements:\(user) 有 \(count) 项")
            : Localized(en: "store: \(count) purchase\(count == 1 ? "" : "s") restored to \(user)", zh: "商店:为 \(user) 恢复了 \(count) 项购买")
    }

    func restoreFailed(for user: String) -> Localized {
        two ? Localized(en: "AppStore.sync() for \(user) failed", zh: "AppStore.sync() 为 \(user) 同步失败")
            : Localized(en: "store: restore for \(user) failed", zh: "商店:为 \(user) 恢复购买失败")
    }

    func finished(_ id: String, found: Bool) -> Localized {
        switch (two, found) {
        case (true, true): Localized(en: "Transaction.finish(): tx \(id)", zh: "Transaction.finish():tx \(id)")
        case (true, false): Localized(en: "Transaction.finish(): tx \(id) not found", zh: "Transaction.finish():找不到 tx \(id)")
        case (false, true): Localized(en: "store: tx \(id) finished", zh: "商店:tx \(id) 已结束")
        case (false, false): Localized(en: "store: finish could not find tx \(id)", zh: "商店:结束交易时找不到 tx \(id)")
        }
    }

    /// The work the client asks of the store, as an effect the timeline lists.
    func pay(_ productId: String) -> Localized {
        two ? Localized("purchase(options:) \(productId)") : Localized(en: "pay ", zh: "付款 ") + productId
    }

    var restore: Localized {
        two ? Localized("AppStore.sync()") : Localized(en: "restore purchases", zh: "恢复购买")
    }

    func finish(_ id: String) -> Localized {
        two ? Localized("finish() \(id)") : Localized(en: "finish ", zh: "结束 ") + id
    }

    var readUnfinished: Localized {
        two ? Localized(en: "read Transaction.unfinished", zh: "读取 Transaction.unfinished")
            : Localized(en: "look at the store's queue", zh: "查看商店队列")
    }

    /// The inspector's store column: the payment queue, or what `Transaction.unfinished` holds (its count is not cut at
    /// 80 columns, where the API's name would push it out).
    var queue: Localized {
        two ? Localized(en: "Unfinished", zh: "未完成交易") : Localized(en: "Store queue", zh: "商店队列")
    }

    /// A transaction's state: StoreKit 1's `SKPaymentTransactionState`, or where a StoreKit 2 app meets it (a purchase
    /// in flight, `PurchaseResult.pending`, a transaction `AppStore.sync()` brought back). A purchase is not called
    /// verified: whether it is, is the device's and the server's check, which the timeline tells.
    func state(_ state: TransactionState) -> Localized {
        switch state {
        case .purchasing: Localized(en: state.rawValue, zh: "购买中")
        case .purchased: Localized(en: state.rawValue, zh: "已购买")
        case .failed: Localized(en: state.rawValue, zh: "失败")
        case .restored: two ? Localized(en: "synced", zh: "已同步") : Localized(en: state.rawValue, zh: "已恢复")
        case .deferred: Localized(en: two ? "pending" : state.rawValue, zh: "等待批准")
        }
    }

    /// Why a payment failed: a cancel is StoreKit 2's `userCancelled` result, a refused offer its `Product.PurchaseError`,
    /// a failed payment `StoreKitError.unknown` (what Xcode's failing transactions throw unless told otherwise), as is a
    /// purchase refused while the product's last transaction is unfinished (StoreKit 2 documents no error of its own for
    /// it, so the timeline adds why); a parent's no to Ask to Buy has no StoreKit 2 result at all.
    func error(_ error: StoreError) -> String {
        guard two else { return error.rawValue }
        switch error {
        case .cancelled: return "userCancelled"
        case .paymentFailed: return "StoreKitError.unknown"
        case .alreadyPending: return "StoreKitError.unknown (an earlier purchase is unfinished)"
        case .declined: return "declined by a parent"
        default: return error.appleName(in: .two) ?? error.rawValue
        }
    }

    /// What links a transaction to the app's account on the inspector: the `applicationUsername`, or the end of the
    /// `appAccountToken`, as the timeline shows it (∅ when it has none).
    func accountLink(of transaction: StoreTransaction) -> String {
        let link = two ? transaction.appAccountToken.map { "…" + String($0.uuidString.lowercased().suffix(8)) } : transaction.applicationUsername
        return link ?? "∅"
    }
}
