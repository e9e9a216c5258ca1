import Foundation
import IAPCore

/// One screen of every user-visible state, built from a state (no parties, no clock): the gallery's pictures
/// and the snapshot tests' screens are the same ones.
public struct GalleryScreen: Sendable {
    /// The `StateCatalog` id it shows.
    public let id: String
    public let width: Int
    public let height: Int
    private let inspector: InspectorView
    /// Told in the screen's language into the inspector.
    private let timeline: Timeline
    private let make: @Sendable (Language) -> AppState

    init(_ id: String, width: Int = 80, height: Int = 24, inspector: InspectorView = InspectorView(), timeline: Timeline = Timeline(),
         _ make: @escaping @Sendable (Language) -> AppState) {
        self.timeline = timeline
        self.id = id
        self.width = width
        self.height = height
        self.inspector = inspector
        self.make = make
    }

    public func state(_ lang: Language) -> AppState { make(lang) }

    public func render(_ lang: Language, theme: Theme) -> ScreenGrid {
        var view = inspector
        view.timeline = timeline.entries(lang)
        return Renderer.render(state(lang), width: width, height: height, theme: theme, inspector: view)
    }

    public static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// Every state of `StateCatalog`, in its order, over `catalog`'s products.
    public static func all(catalog: [Product]) -> [GalleryScreen] {
        let pending = PendingOrder(
            transactionId: "1000000007", user: "alice", productId: "com.iapsim.coins.300", orderId: "ORD-000007",
            purchasedAt: now.addingTimeInterval(-60), price: .value(Money(30, "CNY")), receiptHash: "ab12", attempts: 2,
            lastAttemptAt: now.addingTimeInterval(-2))
        let shopping: @Sendable (Language) -> AppState = { lang in
            var state = AppState(lang: lang, now: now)
            state.products = catalog
            state.productsStatus = .loaded
            state.user = "alice"
            state.session?.account = Account(coins: 120, owned: ["com.iapsim.noads"])
            return state
        }
        func screen(_ id: String, width: Int = 80, height: Int = 24, inspector: InspectorView = InspectorView(), timeline: Timeline = Timeline(),
                    _ change: @escaping @Sendable (inout AppState) -> Void = { _ in }) -> GalleryScreen {
            GalleryScreen(id, width: width, height: height, inspector: inspector, timeline: timeline) { lang in
                var state = shopping(lang)
                change(&state)
                return state
            }
        }
        let day = 86_400.0
        @Sendable func subscribed(_ state: SubscriptionStatus.State, _ productId: String = "com.iapsim.vip.monthly", date: Date?,
                                  renewsAs: String? = nil) -> @Sendable (inout AppState) -> Void {
            { app in
                app.session?.subscriptions = [SubscriptionStatus(productId: productId, group: "com.iapsim.vip", state: state, date: date,
                                                                 renewsAs: renewsAs, originalTransactionId: "1000000004")]
                if SubscriptionStatus(productId: productId, group: "", state: state, date: nil, originalTransactionId: "").entitles {
                    app.session?.account.owned.insert(productId)
                }
                app.selection = catalog.firstIndex { $0.id == productId } ?? 0
            }
        }
        @Sendable func withPending(_ state: inout AppState) {
            state.session?.keep(pending)
        }
        func hud(_ kind: HUD.Kind, _ change: @escaping @Sendable (inout AppState) -> Void = { _ in }) -> GalleryScreen {
            screen("hud-" + kind.catalogName) {
                $0.hud = HUD(kind, productId: "com.iapsim.coins.300", transactionId: kind == .purchasing ? nil : pending.transactionId)
                change(&$0)
            }
        }
        var inspector = InspectorView()
        inspector.storeQueue = [StoreTransaction(id: pending.transactionId, productId: pending.productId, state: .purchased,
                                                 applicationUsername: pending.orderId, date: pending.purchasedAt)]
        inspector.storeTotal = 1
        inspector.credits = [("1000000003", "com.iapsim.coins.60", 60), ("1000000001", "com.iapsim.coins.60", 60)]
        inspector.creditTotal = 2
        // The story of the pending order, told by the real timeline.
        var timeline = Timeline()
        let before = AppState(now: now)
        var order = pending
        order.attempts = 0
        let transaction = StoreTransaction(id: order.transactionId, productId: order.productId, state: .purchased,
                                           applicationUsername: nil, date: order.purchasedAt)
        timeline.record(.key(.enter), [.createOrder(user: "alice", productId: order.productId)], from: before, at: now.addingTimeInterval(-60))
        let intent = PaymentIntent(id: 1, user: "alice", productId: order.productId, orderId: nil, createdAt: now.addingTimeInterval(-60))
        timeline.record(.orderCreated(user: "alice", productId: order.productId, .failure(.unreachable)),
                        [.recordIntent(user: "alice", productId: order.productId, orderId: nil, appAccountToken: nil, at: intent.createdAt)], from: before, at: intent.createdAt)
        timeline.record(.intentRecorded(user: "alice", productId: order.productId, intent),
                        [.addPayment(Payment(productId: order.productId, applicationUsername: nil, pressedBy: "alice", id: 1))], from: before, at: intent.createdAt)
        timeline.record(.storeUpdated([transaction]), [.persist(order, closingIntent: 1)], from: before, at: now.addingTimeInterval(-59))
        timeline.record(.persisted(order, ok: true), [.verify(order)], from: before, at: now.addingTimeInterval(-59))
        timeline.record(.verified(order, .retry(reason: .backendUnreachable)), [.persist(pending, closingIntent: nil)], from: before, at: now.addingTimeInterval(-58))
        timeline.record(.tick, [.verify(pending)], from: before, at: now.addingTimeInterval(-2))

        let own = [
            GalleryScreen("login") { lang in
                var state = AppState(lang: lang, now: now)
                state.loginText = "alice"
                return state
            },
            screen("products"),
            screen("products-pending") { withPending(&$0) },
            screen("loading") { $0.productsStatus = .loading },
            screen("no-products") { state in
                state.productsStatus = .empty
                state.productIdentifiers = state.products.map(\.id)
            },
            screen("products-failed") { state in
                state.productsStatus = .failed
                state.productIdentifiers = state.products.map(\.id)
            },
            hud(.purchasing),
            GalleryScreen("hud-already-owned") { lang in
                var state = shopping(lang)
                state.selection = 3
                state.hud = HUD(.alreadyOwned, productId: "com.iapsim.noads")
                return state
            },
            GalleryScreen("hud-already-subscribed") { lang in
                var state = shopping(lang)
                state.selection = 5
                state.device.appleId = "sandbox-1"
                state.hud = HUD(.alreadySubscribed, productId: "com.iapsim.vip.monthly")
                return state
            },
            GalleryScreen("hud-offer-refused") { lang in
                var state = shopping(lang)
                state.selection = 5
                state.hud = HUD(.offerRefused, productId: "com.iapsim.vip.monthly", transactionId: "1000000012", error: .invalidSignature)
                return state
            },
            GalleryScreen("hud-code-redeemed") { lang in
                var state = shopping(lang)
                state.selection = 5
                state.hud = HUD(.codeRedeemed)
                return state
            },
            hud(.backgrounded),
            hud(.confirming),
            GalleryScreen("hud-confirming-retry") { lang in
                var state = shopping(lang)
                state.hud = HUD(.confirming, productId: "com.iapsim.coins.300", transactionId: pending.transactionId)
                state.session?.keep(pending)
                state.session?.queue.triesSinceTrigger = [pending.transactionId: 2]
                state.faults = [.backendDown]
                return state
            },
            hud(.success),
            screen("hud-restoring") { $0.hud = HUD(.restoring) },
            // As the app draws it: the count of what came back, no product (a restore brings back transactions).
            screen("hud-restored") { $0.hud = HUD(.restored, count: 1) },
            screen("hud-nothing-to-restore") { $0.hud = HUD(.nothingToRestore) },
            screen("hud-restore-failed") { $0.hud = HUD(.restoreFailed) },
            hud(.failed),
            hud(.cancelled),
            hud(.deferred),
            GalleryScreen("hud-plan-changed") { lang in
                var state = shopping(lang)
                subscribed(.active, "com.iapsim.vip.plus", date: now.addingTimeInterval(20 * day), renewsAs: "com.iapsim.vip.monthly")(&state)
                state.hud = HUD(.planChanged, productId: "com.iapsim.vip.monthly", transactionId: "1000000011")
                return state
            },
            GalleryScreen("hud-other-account") { lang in
                var state = shopping(lang)
                state.selection = 3
                state.hud = HUD(.otherAccount, productId: "com.iapsim.noads", transactionId: "1000000012")
                return state
            },
            GalleryScreen("hud-other-account-subscription") { lang in
                var state = shopping(lang)
                state.selection = 7
                state.hud = HUD(.otherAccount, productId: "com.iapsim.vip.plus", transactionId: "1000000013")
                return state
            },
            GalleryScreen("hud-apple-id-changed") { lang in
                var state = shopping(lang)
                state.device.appleId = "sandbox-2"
                state.hud = HUD(.appleIdChanged, productId: "com.iapsim.noads")
                return state
            },
            screen("family-shared") { state in
                state.device.appleId = "sandbox-2"
                state.selection = 3
                state.session?.account.owned.insert("com.iapsim.noads")
                state.session?.account.familyShared.insert("com.iapsim.noads")
            },
            screen("hud-family-revoked") { state in
                state.device.appleId = "sandbox-2"
                state.selection = 3
                state.session?.account.owned.remove("com.iapsim.noads")
                state.hud = HUD(.familyRevoked, productId: "com.iapsim.noads")
            },
            hud(.disabled),
            hud(.verifyFailed),
            hud(.jailbroken) { $0.faults = [.jailbroken] },
            screen("sub-trial", subscribed(.trial, date: now.addingTimeInterval(7 * day))),
            screen("sub-active", subscribed(.active, date: now.addingTimeInterval(30 * day))),
            screen("sub-cancelled", subscribed(.cancelled, date: now.addingTimeInterval(12 * day))),
            screen("sub-grace-period", subscribed(.gracePeriod, date: now.addingTimeInterval(16 * day))),
            screen("sub-billing-retry", subscribed(.billingRetry, date: now.addingTimeInterval(44 * day))),
            screen("sub-expired", subscribed(.expired, date: now.addingTimeInterval(-2 * day))),
            screen("sub-revoked", subscribed(.revoked, date: now.addingTimeInterval(-1 * day))),
            screen("subscriptions") {
                subscribed(.active, "com.iapsim.vip.plus", date: now.addingTimeInterval(20 * day), renewsAs: "com.iapsim.vip.monthly")(&$0)
                $0.modal = .subscriptions(selection: 0)
            },
            screen("prompt-unfinished") {
                withPending(&$0)
                $0.modal = .unfinished(transactionId: pending.transactionId, choice: 0)
            },
            screen("logout-warning") {
                withPending(&$0)
                $0.modal = .logoutWarning(choice: 0)
            },
            screen("quit-confirm") {
                $0.hud = HUD(.purchasing, productId: "com.iapsim.coins.300")
                $0.modal = .quitConfirm
            },
            screen("backend-down") {
                withPending(&$0)
                $0.faults = [.backendDown]
            },
            screen("fault-badges") {
                var faults: ArmedFaults = [.emptyApplicationUsername]
                faults.insert(.crashAt, FaultArm(value: "verify", once: true))
                $0.faults = faults
            },
            screen("alarm") {
                var order = pending
                order.attempts = 10
                $0.session?.keep(order)
                $0.alarms = [.verifyFailing(transactionId: order.transactionId, attempts: 10, reason: .backendUnreachable)]
            },
            screen("unattributed") {
                $0.alarms = [.unattributed(transactionId: "1000000009", productId: "com.iapsim.coins.60")]
            },
            screen("credit-missing") {
                $0.alarms = [.creditMissing(transactionIds: ["1000000004", "1000000007"], ofLatest: 12)]
            },
            screen("too-small", width: 50, height: 12),
            screen("help") { $0.modal = .help(page: 0) },
            screen("fault-panel") {
                $0.faults = [.backendDown]
                $0.modal = .faultPanel(selection: 0)
            },
            screen("scenarios") {
                $0.scenarios = [
                    ScenarioInfo(name: "backend-down-retries", shows: Localized(en: "the backend is unreachable through several retries", zh: "后端多次重试都不可达")),
                    ScenarioInfo(name: "paid-then-killed", shows: Localized(en: "the app is killed after Apple took the money but before the backend verified it; at the next launch the order is found, verified and credited once", zh: "Apple 扣款后、后端验证前应用被杀;下次启动时找到订单,验证并只入账一次")),
                    ScenarioInfo(name: "switched-mid-purchase", shows: Localized(en: "alice starts paying, and the account switches to bob", zh: "alice 开始付款时账号被切换为 bob")),
                ]
                $0.modal = .scenarios(selection: 1)
            },
            screen("inspector", inspector: inspector, timeline: timeline) {
                withPending(&$0)
                $0.modal = .inspector
            },
            screen("compensate-confirm", inspector: inspector, timeline: timeline) {
                withPending(&$0)
                $0.modal = .compensateConfirm(orderId: pending.orderId ?? "ORD-000001", transactionId: pending.transactionId)
            },
            screen("state-catalog") { $0.modal = .stateCatalog(selection: StateCatalog.entries.firstIndex { $0.id == "hud-confirming" } ?? 0) },
            screen("redeem-sheet") { $0.modal = .redeemCode(text: "VIPSPRING") },
        ]
        // A panel registered since shows its own picture, last, as it comes last in the catalog.
        return own + ListPanels.later.compactMap { panel in panel.gallery.map { screen(panel.stateId, $0) } }
    }
}
