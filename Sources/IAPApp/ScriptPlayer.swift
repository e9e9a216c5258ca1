import AppleVocabulary
import Foundation
import IAPCore
import IAPUI
import MockBackend

/// Runs a script against the app on a virtual clock, through the same keymap and reducer as the terminal UI.
/// Prints a transcript; stops at the first expectation that fails and shows the screen at that moment.
public final class ScriptPlayer {
    public struct Setup {
        public var directory: DataDirectory
        public var catalog: [Product]
        public var options: AppState
        public var width = 80
        public var height = 24
        /// Where `snapshot NAME` writes NAME.txt; nil: into the transcript.
        public var snapshots: String?
        /// The clock a fresh session starts at (the live one, when the app is handed over to a person).
        public var start = AppSession.epoch
        /// Stop at `handover` (the UI takes over from there) instead of going on.
        public var stopAtHandover = false
        /// The shipped scenarios, by name, and their list: what the scenario list offers (none when not given).
        public var scenarioScript: ((String) throws -> Script)?
        public var scenarios: () -> [ScenarioInfo] = { [] }

        public init(directory: DataDirectory, catalog: [Product], options: AppState = AppState()) {
            self.directory = directory
            self.catalog = catalog
            self.options = options
        }
    }

    public enum Outcome {
        case passed
        case failed(line: Int, message: String)
    }

    private var setup: Setup
    private let output: (String) -> Void
    public private(set) var session: AppSession? {
        didSet { session?.host = host }
    }
    private var launchFaults: ArmedFaults = []
    /// What the app asked of the program around it, acted on after each step, as the terminal loop does between events.
    private let host: HostRequests
    private var quit = false
    /// Said beside a `press` step whose keys did nothing at all (no effect, no change of state or screen), and why when
    /// known, so that a script's lost key is seen.
    private var unheeded: String?
    /// A `snapshot`'s screen for the transcript, printed under its own line.
    private var snapshotShown: String?

    public init(_ setup: Setup, output: @escaping (String) -> Void = { print($0) }) {
        self.setup = setup
        self.output = output
        host = HostRequests(scenarios: setup.scenarios)
    }

    /// The products the script's app runs with (`billing-grace` changes them): the app handed over keeps them.
    public var catalog: [Product] { setup.catalog }

    /// Plays `script`; the session it leaves (nil if nothing launched) stays readable afterwards.
    public func play(_ script: Script) throws -> Outcome {
        // A script written for one StoreKit runs in it whatever the player was given.
        if let mode = script.storeKit { setup.options.storeKit = mode }
        if script.serverAPIBackend { setup.options.serverAPIBackend = true }
        for line in script.steps {
            if line.step == .handover, setup.stopAtHandover { return .passed }
            let note: String?
            do {
                note = try perform(line.step)
                try actOnRequests()
            } catch let failure as Failure {
                say(line, "✘ " + failure.message)
                output("screen at that moment:")
                output(screenText())
                return .failed(line: line.number, message: failure.message)
            }
            say(line, note.map { "✓ " + $0 } ?? unheeded.map { "⚠ " + $0 } ?? "")
            unheeded = nil
            if let shown = snapshotShown { output(shown) }
            snapshotShown = nil
        }
        return .passed
    }

    private struct Failure: Error { let message: String }

    /// Quits, reinstalls or hands a scenario over, as the app asked; a crash leaves the app halted, as `kill -9` does.
    private func actOnRequests() throws {
        for request in host.take() {
            switch request {
            case .quit:
                quit = true
            case .crashed:
                break
            case .reinstall:
                try session?.reinstall()
            case let .startScenario(name):
                guard let scenarioScript = setup.scenarioScript else { throw Failure(message: "no scenarios are shipped with this player") }
                let script = try scenarioScript(name)
                var inner = setup
                inner.directory = DataDirectory(path: setup.directory.path + "/scenarios/" + script.name)
                inner.stopAtHandover = true
                inner.start = session?.timers.now ?? setup.start
                // The lists reopen where they were left, the scenario list at the one chosen.
                inner.options.panelRows = session?.state.panelRows ?? [:]
                _ = try inner.directory.removeAll()
                let player = ScriptPlayer(inner) { _ in }
                if case let .failed(line, message) = try player.play(script) {
                    throw Failure(message: "scenario \(name) could not be set up: line \(line): \(message)")
                }
                session = player.session
                setup.catalog = player.catalog
            }
        }
    }

    private func say(_ line: Script.Line, _ note: String) {
        let clock = session.map { Elapsed.text($0.timers.now.timeIntervalSince(setup.start)) } ?? "      - "
        output("\(clock)  \(line.text)\(note.isEmpty ? "" : "   " + note)")
    }

    private func app() throws -> AppSession {
        guard !quit else { throw Failure(message: "the app has quit (`relaunch` starts it again)") }
        if let session { return session }
        return try launch(user: nil)
    }

    private func launch(user: String?) throws -> AppSession {
        let session = try AppSession(directory: setup.directory, catalog: setup.catalog, options: setup.options,
                                     faults: launchFaults, user: user, clock: .virtual(start: setup.start))
        self.session = session
        return session
    }

    public func screenText() -> String {
        guard let session else { return "(the app is not running)" }
        if quit { return "(the app has quit; `relaunch` starts it again)" }
        if session.runtime.halted { return "(the app has crashed: \(session.runtime.crashReason?.en ?? "killed"); `relaunch` starts it again)" }
        return session.screen(width: setup.width, height: setup.height).text
    }

    /// Whether the screen shows `text` as it is drawn or, in another language, as it would read in English: the
    /// shipped scripts wait for English words, and `play --lang zh` plays them in Chinese.
    private func screenShows(_ text: String) -> Bool {
        if screenText().contains(text) { return true }
        guard let session, !quit, !session.runtime.halted, session.state.lang != .en else { return false }
        return session.screen(width: setup.width, height: setup.height, lang: .en).text.contains(text)
    }

    /// Does one step; answers what it checked, or throws the failure.
    private func perform(_ step: Script.Step) throws -> String? {
        switch step {
        case let .launch(user):
            // Any step starts the app: a set-up step written before `launch` already did.
            guard session == nil else {
                throw Failure(message: "the app is already running: a step before this one started it (any step does); put `launch` first, or use `relaunch` to start it again")
            }
            _ = try launch(user: user)
        case let .login(name):
            let app = try app()
            guard app.state.user == nil else { throw Failure(message: "\(app.state.user!) is logged in; press L first") }
            app.type(name)
            app.press(.enter)
        case let .press(keys):
            let app = try app()
            let before = (screen: screenText(), state: app.state, effects: app.runtime.effectsAsked)
            for key in keys { app.press(key) }
            if app.runtime.effectsAsked == before.effects, app.state == before.state, screenText() == before.screen {
                let loading = app.state.user != nil && app.state.productsStatus == .loading && app.state.modal == nil
                unheeded = "changed nothing" + (loading ? ": the products are still loading (`wait until` a product's name first)" : "")
            }
        case let .type(text):
            try app().type(text)
        case let .wait(seconds):
            try app().advance(seconds)
        case let .waitUntil(text, limit):
            let app = try app()
            let deadline = app.timers.now.addingTimeInterval(limit)
            while !screenShows(text) {
                guard app.timers.now < deadline else { throw Failure(message: "\"\(text)\" did not appear within \(Int(limit)) s") }
                let next = min(app.timers.nextDue ?? deadline, app.timers.now.addingTimeInterval(1), deadline)
                app.advance(max(next.timeIntervalSince(app.timers.now), 0))
            }
            return "after \(String(format: "%.1f", limit - deadline.timeIntervalSince(app.timers.now))) s"
        case .skip:
            let app = try app()
            app.timers.skipToNextDue()
            app.runtime.refreshClock()
        case let .fault(fault, arm):
            if let session { session.set(fault, arm) } else { launchFaults.insert(fault, arm) }
        case let .clear(fault):
            if let session { session.set(fault, nil) } else { launchFaults.remove(fault) }
        case .crash:
            try app().runtime.halt(afterEffects: 0)
        case let .relaunch(user):
            quit = false
            guard let session else { return try launch(user: user).state.user.map { "as \($0)" } }
            try session.relaunch(user: user)
        case .reinstall:
            try app().reinstall()
        case .restore:
            let app = try app()
            guard app.state.user != nil else { throw Failure(message: "nobody is logged in to restore for; `login NAME` first") }
            guard app.state.keyContext == .products else {
                throw Failure(message: "Restore Purchases is on the product list, and something is over it; `press Esc` first")
            }
            ScriptDriver(session: app).press(.restore)
        case let .device(name, user):
            quit = false
            guard let session else {
                setup.directory = setup.directory.on(device: name)
                return try launch(user: user).state.user.map { "on \(name) as \($0)" } ?? "on \(name)"
            }
            try session.move(to: name, user: user)
            return session.state.user.map { "on \(name) as \($0)" } ?? "on \(name)"
        case let .switchUser(name):
            try app().runtime.send(.switchUser(name))
        case let .appleId(name):
            try app().runtime.send(.intent(.signInAppleId(name)))
        case let .restorePolicy(policy):
            try app().parties.backend.restorePolicy = policy
        case let .family(members):
            guard try app().parties.store.joinFamily(members) else { throw Failure(message: "the store could not write the family") }
        case let .leaveFamily(appleId):
            guard try app().parties.store.leaveFamily(appleId) else { throw Failure(message: "`leave-family`: \(appleId) is in no family") }
        case let .lang(lang):
            setup.options.lang = lang
            try app().runtime.send(.setLanguage(lang))
        case let .refund(transactionId, reason):
            let app = try app()
            guard transactionId != nil || app.state.user != nil else { throw Failure(message: "`refund` needs a transaction id (nobody is logged in)") }
            guard let refunded = ScriptDriver(session: app).appleRefunds(transactionId: transactionId, account: app.state.user, because: reason) else {
                throw Failure(message: transactionId.map { "nothing to refund: \($0) is not a paid, unrefunded transaction" }
                              ?? "nothing to refund: \(app.state.user!)'s Apple ID has no unrefunded transaction")
            }
            return "refunded \(refunded) (the customer's reason: \(reason.argument))"
        case let .priceIncrease(productId):
            let app = try app()
            try known(productId, subscription: true)
            let asked = ScriptDriver(session: app).teamRaisesPrice(of: productId)
            guard asked > 0 else { throw Failure(message: "nobody to ask: no subscriber's next renewal charges \(productId) (or each was asked already)") }
            return "price of \(productId) raised: \(asked) subscriber\(asked == 1 ? "" : "s") asked to agree"
        case let .refundDecision(decision, transactionId, reason):
            let app = try app()
            guard transactionId != nil || app.state.user != nil else { throw Failure(message: "`\(decision.rawValue)` needs a transaction id (nobody is logged in)") }
            guard let decided = ScriptDriver(session: app).appleDecidesRefund(decision, transactionId: transactionId, account: app.state.user,
                                                                              because: reason) else {
                let what = decision == .decline ? "a paid, unrefunded transaction" : "a refunded transaction"
                throw Failure(message: transactionId.map { "nothing to decide: \($0) is not \(what)" }
                              ?? "nothing to decide: \(app.state.user!) has no \(what.dropFirst(2))")
            }
            return decision == .decline ? "refund of \(decided) declined (the customer's reason: \(reason.argument))" : "refund of \(decided) reversed"
        case .compensate:
            let app = try app()
            guard let orderId = app.state.compensableOrder?.orderId
            else { throw Failure(message: "nothing to compensate: no pending order with an order id") }
            app.runtime.send(.intent(.compensate(orderId: orderId)))  // as `c`, `y` in the inspector
            return "order \(orderId) marked compensated"
        case let .assign(id, user):
            let app = try app()
            guard app.state.unclaimed.contains(where: { $0.id == id })
            else { throw Failure(message: "transaction \(id) is not waiting for support") }
            app.runtime.send(.assignToBuyer(transactionId: id, user: user))
            return "\(id) assigned to \(user)"
        case let .expectScreen(text, present):
            guard screenShows(text) == present else {
                throw Failure(message: present ? "the screen does not show \"\(text)\"" : "the screen shows \"\(text)\"")
            }
            return present ? "on screen" : "not on screen"
        case let .expectCount(what, user, expected):
            let found = try count(what, user: user)
            guard found == expected else { throw Failure(message: "\(what.rawValue)\(user.map { " of \($0)" } ?? ""): expected \(expected), found \(found)") }
            return "\(found)"
        case let .expectSubscription(productId, user, expected):
            let app = try session ?? app()
            let account = try subject(user, of: "expect subscription", in: app)
            try known(productId, subscription: true)
            let found = ScriptDriver(session: app).subscription(productId, of: account)
            guard found == expected else {
                throw Failure(message: "subscription \(productId) of \(account): expected \(expected?.rawValue ?? "none"), found \(found?.rawValue ?? "none")")
            }
            return found?.rawValue ?? "none"
        case let .expectOwned(productId, user, expected):
            let app = try session ?? app()
            let account = try subject(user, of: "expect owned", in: app)
            try known(productId, subscription: false)
            let owned = try ScriptDriver(session: app).account(of: account).owned.contains(productId)
            guard owned == expected else { throw Failure(message: "\(productId) is \(owned ? "" : "not ")owned by \(account)") }
            return owned ? "owned" : "not owned"
        case let .snapshot(name):
            let text = screenText()
            guard let folder = setup.snapshots else {
                snapshotShown = text
                return nil
            }
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let path = (folder as NSString).appendingPathComponent(name + ".txt")
            try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: path))
            return "written to \(path)"
        case .handover:
            return "(the UI would take over here)"
        case let .billingGrace(on):
            guard session == nil else { throw Failure(message: "`billing-grace` is how the store starts: put it before `launch`") }
            setup.catalog = setup.catalog.map { $0.withGracePeriod(on) }
        case let .offer(offerId):
            let app = ScriptDriver(session: try app())
            guard app.state.keyContext == .products, let product = app.state.selectedProduct else {
                throw Failure(message: "`offer` chooses on the product list, which is not showing; `login NAME` and `press Esc` first")
            }
            let offers = product.subscription?.promotionalOffers.map(\.id) ?? []
            guard offerId.map(offers.contains) ?? true else {
                throw Failure(message: "\(product.id) has no promotional offer \"\(offerId!)\"" + (offers.isEmpty ? " (it has none)" : " (it has: \(offers.joined(separator: ", ")))"))
            }
            // `o` goes through the offers, then opens the redemption sheet (the regular price again), which Esc closes.
            for _ in 0...(offers.count + 1) where app.state.offerChoices[product.id] != offerId || app.state.keyContext == .redeemSheet {
                app.press(app.state.keyContext == .redeemSheet ? .back : .chooseOffer)
            }
            return offerId.map { "offer \($0) on \(product.id)" } ?? "regular price for \(product.id)"
        case let .redeem(code):
            return try redeem(code, driver: ScriptDriver(session: try app()))
        case let .redeemOneTime(offerId):
            let driver = ScriptDriver(session: try app())
            let codes = try driver.session.parties.store.database.oneTimeCodes().filter { $0.offerId.lowercased() == offerId.lowercased() }
            guard !codes.isEmpty else { throw Failure(message: "\(offerId) is no offer of one-time codes in the catalog (`oneTimeCodes` on a code offer)") }
            guard let unused = codes.first(where: { $0.redeemedBy == nil }) else { throw Failure(message: "every one-time code of \(offerId) is redeemed") }
            return try redeem(unused.code, driver: driver)
        case let .select(kind, ordinal):
            let app = ScriptDriver(session: try app())
            // The list first has to be there: the product request answers after the store's latency.
            let status = app.waitForProducts(within: Script.longestWaitUntil)
            guard status == .loaded else { throw Failure(message: "the product list did not load (\(status))") }
            guard app.state.user != nil else { throw Failure(message: "the login screen is showing, not the product list; `login NAME` first") }
            guard app.state.keyContext == .products else {
                throw Failure(message: "something is over the product list; `press Esc` first")
            }
            if let problem = Script.selectProblem(kind, ordinal, among: app.state.products) { throw Failure(message: problem) }
            let target = app.state.products.enumerated().filter { $0.element.kind == kind }[ordinal - 1]
            app.select(target.offset)
            return target.element.id
        }
        return nil
    }

    /// The user an expectation is about: the one named, else the one logged in.
    /// An offer code redeemed by the device's Apple ID, as in the App Store app: what it started, or why not.
    private func redeem(_ code: String, driver app: ScriptDriver) throws -> String {
        guard let account = app.appleId else {
            throw Failure(message: "`redeem` needs an Apple ID on the device: `login NAME` (each app user pays with their own) or `apple-id NAME` first")
        }
        switch app.redeem(code: code, account: account) {
        case let .success(transaction?):
            return "\(account) redeemed \(code): transaction \(transaction.id), \(transaction.productId)"
        case .success(nil):
            return "\(account) redeemed \(code): the offer starts at the next renewal"
        case .failure(.offerCodeUsed):
            throw Failure(message: "\(account) redeemed a code of this offer before: one redemption per offer per Apple ID")
        case .failure(.oneTimeCodeUsed):
            throw Failure(message: "\(code) is a one-time code another redemption took already")
        case .failure(.offerCodeLimitReached):
            throw Failure(message: "\(code) was redeemed as often as its limit allows")
        case .failure(.offerCodeIneligible):
            throw Failure(message: "\(code)'s offer is not for \(account), by where it stands in the subscription group (the offer's `eligibility`)")
        case .failure:
            let oneTime = try app.session.parties.store.database.oneTimeCodes().contains { $0.offerId.lowercased() == code.lowercased() }
            throw Failure(message: oneTime ? "\(code) is an offer of one-time codes, not a code: `redeem one-time \(code)` redeems the next unused one"
                          : "\(code) is not an offer code of the catalog (`iapsim catalog` lists each code offer's code)")
        }
    }

    private func subject(_ user: String?, of step: String, in app: AppSession) throws -> String {
        guard let user = user ?? app.state.user else { throw Failure(message: "`\(step)` needs a user (nobody is logged in)") }
        return user
    }

    /// A product id that is not in the catalog is a typo, which would otherwise read as "not owned".
    private func known(_ productId: String, subscription: Bool) throws {
        if let problem = Script.productProblem(productId, subscription: subscription, in: setup.catalog) { throw Failure(message: problem) }
    }

    private func count(_ what: Script.Count, user: String?) throws -> Int {
        // The parties' records outlive the app: they can be counted after it quit.
        let app = ScriptDriver(session: try session ?? app())
        func subject() throws -> String {
            guard let user = user ?? app.state.user else { throw Failure(message: "`expect \(what.rawValue)` needs a user (nobody is logged in)") }
            return user
        }
        switch what {
        case .unfinished: return app.unfinishedTransactions()
        case .credits: return try app.credits(of: subject())
        case .coins: return try app.account(of: subject()).coins
        case .pending: return try app.pendingOrders(of: subject())
        }
    }
}
