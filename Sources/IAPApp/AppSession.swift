import Foundation
import IAPCore
import IAPUI
import MockBackend
import MockStore
#if os(Linux)
import CMalloc
#endif

/// glibc hands the top of the heap back to the system as soon as more than 128 KiB of it is free, and every purchase
/// frees about that much (SQLite's temporary tables, rows, receipts) only to take it again at once: each purchase
/// faulted the same pages back in, and with GRDB's threads about, each hand-back also flushed the TLB of the other
/// cores. Up to 16 MiB of free heap is now kept.
private let heapKept: Void = {
    #if os(Linux)
    _ = mallopt(M_TRIM_THRESHOLD, 16 << 20)
    #endif
}()

/// The app from launch to relaunch, on the real parties: keys in, screens and databases out. It can die and
/// come back on the same files (a crash, a reinstall). On a virtual clock it runs headless: `iapsim play`,
/// the gallery, the engine benchmark and the tests drive the app through it; the terminal UI runs it live.
public final class AppSession {
    /// Whose time the app runs on.
    public enum Clock: Sendable {
        case live(speed: Double, start: Date? = nil)
        case virtual(start: Date)

        /// The same kind of clock, going on from `date` (a relaunch does not turn time back).
        func resumed(at date: Date) -> Clock {
            switch self {
            case let .live(speed, _): .live(speed: speed, start: date)
            case .virtual: .virtual(start: date)
            }
        }

        var timers: TimerQueue {
            switch self {
            case let .live(speed, start): TimerQueue(speed: speed, start: start)
            case let .virtual(start): TimerQueue(virtualStart: start)
            }
        }
    }

    public private(set) var directory: DataDirectory
    public let catalog: [Product]
    public private(set) var timers: TimerQueue
    public private(set) var parties: Parties
    public private(set) var runtime: AppRuntime
    /// The state every launch starts from (language, policy, serial purchases).
    private let options: AppState
    private let latency: Parties.Latency
    private let clock: Clock
    /// What the parties draw at random, across relaunches: a seeded source goes on where it was, as the clock does.
    private let random: RandomSource
    /// Whether a `--notify` server is to be sent what the store tells the app's server: set on every launch's store
    /// before it takes any step, so that what happens at launch goes out too.
    private let notifying: Bool
    /// The Apple ID a device signs in as a new phone's owner would, when none is signed in there yet (A1): nil in the
    /// tests, which sign in what they mean to.
    private let firstAppleId: String?
    /// Does what only the program around the app can; every runtime of this session asks it.
    public weak var host: Host? {
        didSet { runtime.host = host }
    }
    /// Sees every action with its effects and the app's clock, across relaunches.
    public var onAction: ((Date, Action, [Effect]) -> Void)?
    /// What happened, in words, across relaunches (the inspector's timeline).
    public private(set) var timeline = Timeline()

    public static let epoch = Date(timeIntervalSince1970: 1_800_000_000)

    /// A team's own server the client calls instead of the built-in backend (`--backend URL`), in every launch.
    private let remoteBackend: Backend?

    public init(directory: DataDirectory, catalog: [Product], options: AppState = AppState(), faults: ArmedFaults = [],
                user: String? = nil, appleId: String? = nil, firstAppleId: String? = nil, latency: Parties.Latency = Parties.Latency(),
                clock: Clock = .virtual(start: AppSession.epoch), random: RandomSource = .system, backend: Backend? = nil,
                notifying: Bool = false, files: PartyFiles? = nil) throws {
        self.directory = directory
        self.firstAppleId = firstAppleId
        remoteBackend = backend
        self.notifying = notifying
        _ = heapKept
        self.catalog = catalog
        self.options = options
        self.latency = latency
        self.clock = clock
        self.random = random
        (timers, parties, runtime) = try Self.boot(directory, catalog: catalog, clock: clock, random: random, options: options, faults: faults,
                                                   latency: latency, backend: backend, notifying: notifying, appleId: appleId,
                                                   firstAppleId: firstAppleId, files: files)
        start(user: user)
    }

    private static func boot(_ directory: DataDirectory, catalog: [Product], clock: Clock, random: RandomSource, options: AppState,
                             faults: ArmedFaults, latency: Parties.Latency, backend: Backend?, notifying: Bool, appleId: String? = nil,
                             firstAppleId: String? = nil, files: PartyFiles? = nil) throws -> (TimerQueue, Parties, AppRuntime) {
        let timers = clock.timers
        let parties = try Parties.open(in: directory, catalog: catalog, scheduler: timers, random: random, latency: latency, faults: faults,
                                       files: files)
        // Signed in as Settings would have it before the app starts; a failure to write it is the store's alarm.
        if let appleId {
            parties.store.signIn(appleId: appleId)
        } else if let firstAppleId, try parties.store.database.awaitsAppleId() {
            parties.store.signIn(appleId: firstAppleId)
        }
        if let backend { parties.clientBackend = backend }
        parties.store.database.outbox.goesOut = notifying
        parties.store.database.outbox.backendHearsDelivery = options.serverAPIBackend
        parties.backend.learnsFromServerAPI = options.serverAPIBackend
        // The store's clock resumes where it was (a skip, a fast clock), never earlier.
        if let known = parties.store.lastKnownTime { timers.jump(to: known) }
        // The app was closed through the next renewal: the store's clock is past it before anything is attached.
        if let renewal = parties.store.nextSubscriptionEvent(), parties.faults.fire(.renewalWhileClosed) != nil {
            timers.jump(to: renewal.addingTimeInterval(1))
        }
        parties.backend.readNotificationHistory()
        var state = options
        state.now = timers.now
        state.productIdentifiers = catalog.map(\.id)
        // The device's notes of who is paying are known before the store re-delivers anything (C1, I3).
        state.device.paymentIntents = try parties.vault.openIntents()
        return (timers, parties, AppRuntime(state: state, parties: parties, timers: timers))
    }

    /// Hooks the new runtime to the session (timeline, scenario list), then launches it.
    private func start(user: String?) {
        let timers = timers
        runtime.onAction = { [weak self] action, state in
            let before = Timeline.Before(action, state)
            return { effects, after in
                guard let self else { return }
                self.timeline.record(action, effects, from: before, to: after, at: timers.now)
                self.onAction?(timers.now, action, effects)
            }
        }
        runtime.host = host
        runtime.devices = { [directory] in DeviceRoster.read(directory) }
        parties.store.onBackendAttempt = { [weak self] in self?.note($0) }
        runtime.start(user: user)
        for alarm in PartyAgreement.alarms(store: parties.store, backend: parties.backend.database) {
            runtime.send(.alarm(alarm))
        }
    }

    deinit { timers.cancelAll() }

    public var state: AppState { runtime.state }

    /// Drops every object of the running app on the floor, as `kill -9` does, and starts a new one on the same files.
    /// The faults armed stay armed, as flags on the command line would, unless `faults` says otherwise.
    public func relaunch(user: String? = nil, faults: ArmedFaults? = nil) throws {
        timers.cancelAll()
        (timers, parties, runtime) = try Self.boot(directory, catalog: catalog, clock: clock.resumed(at: timers.now), random: random, options: options,
                                                   faults: faults ?? parties.faults.armed, latency: latency, backend: remoteBackend,
                                                   notifying: notifying, firstAppleId: firstAppleId)
        start(user: user)
    }

    /// The app on another device of the same accounts, as a relaunch there: that device's keychain, sandbox and store
    /// queue; the same store account's purchases and the same backend. Logged in as `user`, else as the last user that
    /// device remembers (nobody on a new one). The faults armed stay armed, unless `faults` says otherwise.
    public func move(to device: String, user: String? = nil, faults: ArmedFaults? = nil) throws {
        let previous = directory
        directory = directory.on(device: device)
        do {
            try relaunch(user: user, faults: faults)
        } catch {
            directory = previous
            throw error
        }
    }

    /// Something the program around the app saw, on the timeline at the app's clock.
    public func note(_ text: Localized) {
        timeline.note(text, at: timers.now)
    }

    /// Quitting: nothing scheduled runs any more, and every party's database is closed, so that the next launch finds
    /// the files as iapsim left them (`DataDirectory.recordClosedCleanly`).
    public func close() throws {
        timers.cancelAll()
        try parties.close()
    }

    /// Arms (an arm) or disarms (nil) a fault in the running app, as its panel would; while the app is down (crashed),
    /// for the next launch, as a flag on its command line would.
    public func set(_ fault: Fault, _ arm: FaultArm?) {
        guard !runtime.halted else {
            parties.faults.set(fault, arm)
            return
        }
        runtime.send(.setFault(fault, arm))
    }

    /// Delete the app and install it again (C11): the sandbox goes; the keychain and the store's queue stay.
    public func reinstall(user: String? = nil) throws {
        try directory.removeSandbox()
        try relaunch(user: user)
    }

    public func press(_ keys: Key...) {
        for key in keys { runtime.send(.key(key)) }
    }

    public func type(_ text: String) {
        for c in text { runtime.send(.key(.char(c))) }
    }

    public func advance(_ seconds: Double) {
        timers.advance(by: seconds)
        runtime.refreshClock()
    }

    /// Runs everything scheduled until nothing is left before `limit` seconds from now; answers the time it took.
    @discardableResult
    public func settle(within limit: Double = 3600) -> Double {
        let start = timers.now
        while let due = timers.nextDue, due.timeIntervalSince(start) <= limit {
            advance(max(due.timeIntervalSince(timers.now), 0))
        }
        return timers.now.timeIntervalSince(start)
    }

    /// The screen as the terminal shows it, the inspector's records included: `play`, the tests and the live UI
    /// draw through here, so the same state draws the same screen in all of them.
    /// The screen as drawn now, or as it would read in `lang`.
    public func screen(width: Int = 80, height: Int = 24, theme: Theme = .monochrome, lang: Language? = nil) -> ScreenGrid {
        var state = runtime.state
        if let lang { state.lang = lang }
        let inspector = state.showsInspector ? inspectorView(rows: height) : InspectorView()
        return Renderer.render(state, width: width, height: height, theme: theme, inspector: inspector)
    }

    /// The parties' side of the inspector for the logged-in user: a page of each, never the whole history.
    public func inspectorView(rows: Int = 20) -> InspectorView {
        var view = InspectorView()
        (view.storeQueue, view.storeTotal) = parties.store.queued(limit: rows)
        view.holders = ((try? parties.vault.held(view.storeQueue.map(\.id))) ?? [:]).mapValues(\.user)
        if state.storeKit == .two, let user = state.user {
            view.entitlements = parties.store.currentEntitlements(user: user)
        }
        if let elsewhere = remoteBackend?.creditsKeptAt {
            view.creditsKeptAt = elsewhere
        } else if let user = state.user, let page = try? parties.backend.database.recentCredits(user: user, limit: rows) {
            view.credits = page.credits.map { ($0.transactionId, $0.productId, $0.coins) }
            view.creditTotal = page.total
        }
        if remoteBackend == nil {
            // What support watches on the built-in backend: first the payments `a` assigns, then Apple retried, the
            // clients' alarms, receipts replayed and the restore policy's moves.
            let database = parties.backend.database
            view.support = state.device.unclaimed.prefix(rows).compactMap {
                    (try? SupportDesk.look(at: $0.id, store: parties.store.database, backend: database)).flatMap { $0 }.map(InspectorView.SupportLine.unclaimed)
                }
                + ((try? database.appleQueue(limit: rows)) ?? []).map { .retryingApple(transactionId: $0.transactionId, attempts: $0.attempts, status: $0.lastStatus) }
                + ((try? database.clientAlarms(limit: rows)) ?? []).map { .clientAlarm(kind: $0.kind, user: $0.user, text: $0.text) }
                + ((try? database.receiptReplays(limit: rows)) ?? []).map { .replay(transactionId: $0.transactionId, by: $0.user, first: $0.firstUser) }
                + ((try? database.transfers(latest: rows)) ?? []).map { .moved(productId: $0.productId, from: $0.from, to: $0.to, policy: $0.policy) }
        }
        view.timeline = timeline.entries(state.lang)
        view.timelineOrigin = timeline.origin
        // Only with --notify or --server-api: otherwise nothing goes out, and the built-in backend hears each at once.
        if notifying || options.serverAPIBackend {
            view.notifications = ((try? parties.store.database.recentNotifications(limit: rows)) ?? []).reversed().map(NotificationDelivery.init)
        }
        return view
    }

    /// An attempt to deliver a server notification ended (the `--notify` sender tells it, on the parties' thread; the
    /// store, of its deliveries to the built-in backend with `--server-api`).
    public func note(_ attempt: OutboxEntry) {
        timeline.record(NotificationDelivery(attempt), at: timers.now)
    }
}
