import Foundation
import IAPCore
import MockBackend
import MockStore
import IAPApp
import Testing

/// A small deterministic generator, so that a failing schedule is replayed from its seed.
struct SplitMix64: RandomNumberGenerator, Sendable {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// One seeded schedule on two devices shared by three users: buys of every kind of product (the same product by
/// two users in overlapping windows among them), cancels and failures that leave intents behind, logouts, logins and
/// account switches between any two steps, payments without an order (backend down, `applicationUsername` empty),
/// lost and delayed callbacks, Ask to Buy, interrupted purchases, owned products bought again, Restore Purchases (and
/// its failure), the app moved to the other device, and the app killed at any effect boundary or at any moment the
/// store acts on its own. Subscriptions live through months: the clock skips to the store's next renewal, billing
/// attempt or expiry (billing failing, renewals while the app was closed, the app killed at any step of a renewal),
/// auto-renew is turned off and on in the `m` panel, Apple refunds, and plans change by buying another level. Half the
/// schedules pay with two Apple IDs under a restore policy, and half of those make them a family that members leave
/// again (what one buys of a family-shareable product the other owns, restores and loses). Then
/// recovery: no faults, on each device each user logs in and answers Continue, and support
/// assigns what no evidence could attribute, from Apple's records.
/// Returns what broke, if anything (I1–I5, I7; who paid is the account Apple charged, which the client never sees).
func explore(seed: UInt64, steps: Int = 28, serverAPI: Bool? = nil) throws -> [String] {
    var rng = SplitMix64(state: seed)
    let users = ["alice", "bob", "小明"]
    var sticky: ArmedFaults = Bool.random(using: &rng) ? [.emptyApplicationUsername] : []
    // Half the schedules with the client written against StoreKit 2 (issue 28), by the seed, so that the draws below,
    // and so each seed's schedule, stay what they were.
    let storeKit = storeKitMode(seed: seed)
    // Half of each with the built-in backend as a modern server (issue 29): notifications as Apple delivers them, with
    // their faults drawn from a generator of their own.
    let serverAPI = serverAPI ?? serverAPIMode(seed: seed)
    var notificationRng = SplitMix64(state: seed ^ 0x5E_4A_91)
    let app = try Harness(user: users[Int.random(in: 0..<3, using: &rng)], faults: sticky, storeKit: storeKit, serverAPI: serverAPI,
                            random: RandomSource(SplitMix64(state: seed ^ 0x0A_11CE)))
    // Half the schedules as the world is: two Apple IDs for the three app users, signed in on each device and switched
    // mid-flight, under one of the backend's restore policies (A1, A2). The other half: each app user's own Apple ID.
    let appleIds = Bool.random(using: &rng) ? ["sandbox-1", "sandbox-2"] : []
    let policy = [RestorePolicy.transfer, .keep, .share][Int.random(in: 0..<3, using: &rng)]
    // Half of those with Family Sharing (A4): the two Apple IDs become a family and leave it again, mid-flight. Drawn from
    // a generator of their own, so that every other draw, and so each seed's schedule around them, stays what it was.
    var familyRng = SplitMix64(state: seed ^ 0xFA_417E)
    let families = !appleIds.isEmpty && Bool.random(using: &familyRng)
    // Whether a StoreKit 2 purchase of a one-year subscription takes its plan "monthly with a 12-month commitment": a
    // generator of its own, so that the schedules drawn before plans existed stay as they were.
    var planRng = SplitMix64(state: seed ^ 0x12_C0_77)
    var inFamily = false
    var log: [String] = []
    /// What each device's keychain has held: a device's orders are never another's.
    var everHeld: [String: Set<String>] = [:]
    let devices = [StoreDatabase.firstDevice, "tablet"]
    var visited: Set<String> = [StoreDatabase.firstDevice]
    var broken: [String] = []
    var lastBought: Int?
    /// Transactions whose Ask to Buy a parent declined: never charged, whatever happens to the app. The fault fires
    /// as the store records the payment, so the newest transaction when the app hears of it is the declined one.
    final class Declines: @unchecked Sendable {
        var armed = false
        var ids: Set<String> = []
    }
    let declines = Declines()
    /// The transactions the store answered each app user's Restore Purchases with. A restore still unfinished on the
    /// device is answered again to whoever presses Restore next: that user restored it too.
    final class Restores: @unchecked Sendable {
        var answered: [String: Set<String>] = [:]
    }
    let restores = Restores()
    let traced = app.session.onAction
    app.session.onAction = { [weak app] now, action, effects in
        traced?(now, action, effects)
        if case let .restoreAnswered(user, .success(ids)) = action { restores.answered[user, default: []].formUnion(ids) }
        if case .faultFired(.askToBuy) = action, declines.armed, let newest = try? app?.storeRecords().last?.transaction.id {
            declines.ids.insert(newest)
            declines.armed = false
        }
    }
    /// Since when the HUD has said "Purchasing…" (a payment sheet) without a relaunch.
    var sheetSince: Date?
    let oneShots: [(Fault, String?)] = [
        (.observerLost, nil), (.observerDelayed, "2"), (.askToBuy, "approve"), (.askToBuy, "decline"),
        (.failedThenPurchased, nil), (.userCancels, nil), (.purchaseFails, nil), (.duplicateCallback, nil),
        (.emptyApplicationUsername, nil), (.backendTimeout, nil), (.restoreFails, nil), (.billingFails, "2"), (.billingFails, "99"),
        (.refund, "5"),
    ]
    let subscriptions = Set(shippedCatalog.filter { $0.subscription != nil }.map(\.id))

    func pick<T>(_ list: [T]) -> T { list[Int.random(in: 0..<list.count, using: &rng)] }

    /// A device's Settings sign an Apple ID in the first time the app runs there.
    func signInIfNone() {
        guard !appleIds.isEmpty, app.state.device.appleId == nil else { return }
        app.runtime.send(.intent(.signInAppleId(pick(appleIds))))
    }
    if !appleIds.isEmpty {
        app.parties.backend.restorePolicy = policy
        log.append("Apple IDs \(appleIds.joined(separator: ", ")), restore policy \(policy.rawValue)\(families ? ", Family Sharing" : "")")
        signInIfNone()
    }

    func logIn(_ name: String) {
        app.press(.escape, .escape)
        if app.state.user != nil { app.press(.char("L")) }
        if case .logoutWarning = app.state.modal { app.press(.right, .enter) }
        if app.state.user == nil {
            // On the login screen letters are the name: Esc clears what a key pressed there typed.
            app.press(.escape)
            app.type(name)
            app.press(.enter)
        }
    }

    func observe() throws {
        let held = Set(try app.clientOrders().map(\.transactionId))
        // A payment sheet that never goes away is a stuck HUD (I6); Apple answers within seconds, a slow backend
        // (the order is created first) within its timeout. A free restore's sheet stays up while the backend confirms
        // it, as "Confirming payment…" does, once the restored transaction is saved.
        let saved = app.state.hud?.transactionId.map(held.contains) ?? false
        if app.state.hud?.kind.isPaymentSheet == true, !saved {
            let since = sheetSince ?? app.timers.now
            sheetSince = since
            if app.timers.now.timeIntervalSince(since) > 25 { broken.append("stuck: Purchasing… for over 25 s") }
        } else {
            sheetSince = nil
        }
        let store = Dictionary(uniqueKeysWithValues: try app.storeRecords().map { ($0.transaction.id, $0) })
        let key = try creditKey()
        // A refund takes a credit back; the transaction was credited all the same.
        let credited = Set(try (app.credits() + app.revokedCredits().map(\.credit)).map { key($0.transactionId, $0.transactionId) })
        // I5: nothing leaves the client's store before its transaction is finished.
        let device = app.directory.device
        for id in everHeld[device, default: []].subtracting(held) where store[id]?.finished != true {
            broken.append("I5: \(id) left the \(device)'s client store unfinished")
        }
        everHeld[device, default: []].formUnion(held)
        // The badges show what the parties obey.
        if app.state.faults != app.parties.faults.armed { broken.append("the screen's faults are not the board's") }
        // I4: a paid transaction is finished only after its credit (no rejection happens in these schedules). A family
        // member's copy is finished by Apple, on no device: what is credited is the member's restore of it.
        let familyCopies = try app.familyCopies()
        for (id, record) in store where record.finished && [.purchased, .restored].contains(record.transaction.state)
            && !credited.contains(key(id, record.transaction.originalId)) && !familyCopies.contains(id) {
            broken.append("I4: \(id) finished without a credit")
        }
        // I7: the backend grants a subscription only while the store's chain entitles the account to it: until its
        // expiry, or the end of the grace period while Apple retries, and never once refunded. A server that learns from
        // notifications is judged on each chain once Apple has told it everything about it (one held back, delayed,
        // retried or lost on the way is not heard yet).
        // What the backend grants of a subscription is its active entitlements (a subscription's credit makes nothing
        // owned): read once for every user, and the store's chains only for a user granted one.
        // Each entitlement is checked against its own chain, whichever Apple ID it is of and whoever holds it.
        let unheard = try unheardChains()
        let active = try app.parties.backend.database.entitlements().filter {
            $0.isActive(at: app.timers.now) && subscriptions.contains($0.productId) && !unheard.contains($0.originalTransactionId)
        }
        if !active.isEmpty {
            let chains = Dictionary(try app.chains().map { ($0.status.originalTransactionId, $0.status) }, uniquingKeysWith: { first, _ in first })
            for entitlement in active {
                let chain = chains[entitlement.originalTransactionId]
                guard chain?.productId != entitlement.productId || chain?.entitles != true else { continue }
                let store = chain.map { "\($0.productId) \($0.state.rawValue)" } ?? "nothing"
                broken.append("I7: \(entitlement.user) granted \(entitlement.productId) after step \(log.count) while the store says \(store)")
            }
        }
    }

    /// The chains with a notification the backend has not applied yet (`--server-api` only: otherwise it hears each at once).
    func unheardChains() throws -> Set<String> {
        guard serverAPI else { return [] }
        let backend = app.parties.backend.database
        return Set(try app.parties.store.database.recentNotifications(limit: 100_000).filter { try !backend.hasApplied($0.notification.uuid) }
            .map(\.notification.originalTransactionId))
    }

    /// What a payment is credited under: a subscription's charge once by its web order line item (a restore of it
    /// carries the same one), under whichever of its transactions the backend verified first; anything else by its
    /// original transaction id.
    func creditKey() throws -> (_ id: String, _ original: String) -> String {
        let webOrders = try app.webOrders()
        return { id, original in webOrders[id] ?? original }
    }

    func relaunch(_ user: String?, faults: ArmedFaults, on device: String? = nil) throws {
        if let device, device != app.directory.device {
            try app.session.move(to: device, user: user, faults: faults)
            visited.insert(device)
        } else {
            try app.relaunch(user: user, faults: faults)
        }
        sheetSince = nil
        signInIfNone()
    }

    /// Time that passed while the app was not running may carry the store past its next renewal.
    func whileClosed(_ faults: ArmedFaults) -> ArmedFaults {
        var faults = faults
        if Int.random(in: 0..<3, using: &rng) == 0 { faults.insert(.renewalWhileClosed, FaultArm(once: true)) }
        return faults
    }

    for _ in 0..<steps {
        let roll = Int.random(in: 0..<(appleIds.isEmpty ? 114 : 118), using: &rng)
        switch roll {
        case 0..<20:
            // Often the product bought last: the same product by two users in overlapping windows.
            var index = lastBought.flatMap { Bool.random(using: &rng) ? $0 : nil } ?? Int.random(in: 0..<shippedCatalog.count, using: &rng)
            // A family buys what it can share as often as the rest.
            if families, let shareable = shippedCatalog.firstIndex(where: \.familyShareable), Bool.random(using: &familyRng) { index = shareable }
            lastBought = index
            log.append("buy \(index)")
            // As a person would: wait for the list, put an outcome away, then choose.
            if app.state.productsStatus == .loading { app.advance(0.35) }
            if app.state.hud?.kind.isWaiting == false { app.press(.escape) }
            for _ in 0..<shippedCatalog.count { app.press(.up) }
            for _ in 0..<index { app.press(.down) }
            if storeKitMode(seed: seed) == .two, shippedCatalog[index].subscription?.monthlyCommitment != nil, app.state.keyContext == .products,
               Bool.random(using: &planRng) {
                log[log.count - 1] += " on the plan monthly with a 12-month commitment"
                app.press(.char("o"))
            }
            app.press(.enter)
        case 20..<34:
            let seconds = pick([0.1, 0.25, 0.5, 1, 1.5, 3, 6, 12])
            log.append("wait \(seconds)")
            app.advance(seconds)
        case 34..<38:
            // As a person would: put an outcome away, then Restore Purchases.
            log.append("restore")
            if app.state.hud?.kind.isWaiting == false { app.press(.escape) }
            if app.state.user != nil { app.press(.char("R")) }
        case 38..<45:
            log.append("enter")
            app.press(.enter)
        case 45..<53:
            log.append("esc")
            app.press(.escape)
        case 53..<59:
            log.append("backend toggle")
            app.press(.char("b"))
        case 59..<62:
            log.append("foreground")
            app.press(.char("f"))
        case 62..<67:
            let other = pick(users)
            log.append("log in \(other)")
            logIn(other)
        case 67..<70:
            // The same accounts on the other device: the app there starts as its last user, or as someone given.
            let other = devices.first { $0 != app.directory.device }!
            let next = Bool.random(using: &rng) ? nil : pick(users)
            log.append("move to the \(other)\(next.map { " as \($0)" } ?? "")")
            try relaunch(next, faults: sticky, on: other)
        case 70..<73:
            let other = pick(users)
            log.append("account switched to \(other)")
            app.runtime.send(.switchUser(other))
        case 73..<84:
            let (fault, value) = pick(oneShots)
            let once = fault != .emptyApplicationUsername || Bool.random(using: &rng)
            log.append("arm \(fault.rawValue)\(value.map { "=\($0)" } ?? "")\(once ? ":once" : "")")
            app.session.set(fault, FaultArm(value: value, once: once))
            declines.armed = app.parties.faults.armed.value(.askToBuy) == "decline"
            if !once { sticky.insert(fault, FaultArm(value: value)) }
        case 84..<92:
            let effects = Int.random(in: 0..<8, using: &rng)
            let backendDown = Bool.random(using: &rng)
            let next = Bool.random(using: &rng) ? nil : pick(users)
            var faults = whileClosed(sticky)
            if backendDown { faults.insert(.backendDown) }
            log.append("crash after \(effects) effects, relaunch \(next ?? "as last user")\(backendDown ? " with backend down" : "")"
                       + (faults.contains(.renewalWhileClosed) ? " (closed through the next renewal)" : ""))
            app.runtime.halt(afterEffects: effects)
            app.advance(pick([0.0, 0.5, 1, 1.5]))
            try relaunch(next, faults: faults)
        case 92..<100:
            let next = Bool.random(using: &rng) ? nil : pick(users)
            let faults = whileClosed(sticky)
            log.append("crash at the store's next news, relaunch \(next ?? "as last user")"
                       + (faults.contains(.renewalWhileClosed) ? " (closed through the next renewal)" : ""))
            app.runtime.haltAtNextStoreNews()
            app.advance(pick([0.5, 1, 2.5, 12]))
            try relaunch(next, faults: faults)
        case 100..<104:
            // Months pass: the store renews, retries a billing or lets a subscription expire, on its own clock.
            let past = pick([1.0, 5, 60])
            guard let due = app.parties.store.nextSubscriptionEvent() else {
                log.append("wait \(past)")
                app.advance(past)
                break
            }
            log.append("skip to the store's next subscription event, +\(past) s")
            app.advance(max(due.timeIntervalSince(app.timers.now), 0) + past)
        case 104..<107:
            // Settings › Subscriptions: auto-renew off (cancel) or back on.
            let moves = Int.random(in: 0..<2, using: &rng)
            log.append("m: toggle auto-renew of subscription \(moves)")
            if app.state.hud?.kind.isWaiting == false { app.press(.escape) }
            // On the login screen m would be a letter of the name.
            if app.state.modal == nil, app.state.user != nil { app.press(.char("m")) }
            if case .subscriptions = app.state.modal {
                for _ in 0..<moves { app.press(.down) }
                app.press(.enter, .escape)
            }
        case 114..<118:
            // Settings › App Store: another Apple ID signs in, mid-purchase as often as not.
            let next = pick(appleIds)
            log.append("Apple ID \(next) signed in")
            app.runtime.send(.intent(.signInAppleId(next)))
        case 107..<110:
            let who = pick(users)
            log.append("Apple refunds \(who)'s latest payment: \(app.parties.store.refund(account: who) ?? "nothing to refund")")
        default:
            // Killed at any step of a renewal: from the moment the store has taken it, a number of the app's effects in.
            let effects = Int.random(in: 0..<7, using: &rng)
            let next = Bool.random(using: &rng) ? nil : pick(users)
            guard let due = app.parties.store.nextSubscriptionEvent() else {
                log.append("wait 1")
                app.advance(1)
                break
            }
            log.append("crash \(effects) effects into the store's next subscription event, relaunch \(next ?? "as last user")")
            app.advance(max(due.timeIntervalSince(app.timers.now), 0))
            app.runtime.halt(afterEffects: effects)
            app.advance(pick([0.5, 1.5, 4]))
            try relaunch(next, faults: sticky)
        }
        declines.armed = app.parties.faults.armed.value(.askToBuy) == "decline"
        // Apple's delivery of the next notification goes astray: twice, held back, late or lost on the way.
        if serverAPI, Int.random(in: 0..<5, using: &notificationRng) == 0 {
            let (fault, value) = [(Fault.notificationTwice, String?.none), (.notificationOutOfOrder, nil), (.notificationLost, nil),
                                  (.notificationDelayed, "30"), (.notificationDelayed, "900")][Int.random(in: 0..<5, using: &notificationRng)]
            log.append("arm \(fault.rawValue)\(value.map { "=\($0)" } ?? ""):once")
            app.session.set(fault, FaultArm(value: value, once: true))
        }
        // The family organizer's Settings: the two Apple IDs form a family, or one of them leaves it (which revokes what
        // either had through the other).
        if families, Int.random(in: 0..<(inFamily ? 16 : 4), using: &familyRng) == 0 {
            if inFamily {
                let leaving = appleIds[Int.random(in: 0..<appleIds.count, using: &familyRng)]
                log.append("\(leaving) leaves the family")
                _ = app.parties.store.leaveFamily(leaving)
            } else {
                log.append("\(appleIds.joined(separator: " and ")) become a family")
                _ = app.parties.store.joinFamily(appleIds)
            }
            inFamily.toggle()
        } else if inFamily, Int.random(in: 0..<3, using: &familyRng) == 0 {
            // A member looks for what the family shares: Restore Purchases, with the member's Apple ID signed in.
            let member = appleIds[Int.random(in: 0..<appleIds.count, using: &familyRng)]
            log.append("restore as \(member) (family)")
            if app.state.device.appleId != member {
                app.runtime.send(.intent(.signInAppleId(member)))
                app.advance(0.5)
            }
            if app.state.hud?.kind.isWaiting == false { app.press(.escape) }
            if app.state.user != nil { app.press(.char("R")) }
        }
        try observe()
    }

    // Recovery: the backend reachable, no faults; on each device each user logs in and answers Continue; support assigns
    // what no evidence could attribute from Apple's records of the Apple ID and the app's orders, as a support desk would.
    // Every app user who paid: a key pressed on a login screen may have typed a name of its own (`b` and Enter).
    let payers = users + Set(try app.storeRecords().compactMap(\.pressedBy)).subtracting(users).sorted()
    /// Answers every prompt, lets every order of the logged-in user be verified, and has support assign what no evidence
    /// could attribute, until nothing of this user's is pending.
    func recoverLoggedInUser() {
        // Long enough for a renewal to wait behind its chain's first charge: the backend credits no renewal of a chain
        // before that charge names the subscriber, and the queue tries the renewals (fewer attempts) first.
        for tick in 0..<120 {
            app.advance(2)
            for case let .unattributed(id, _) in app.state.alarms {
                // Apple's records and the app's orders as they are now, as a desk sees them: a payment may have completed
                // during recovery.
                // Where those name no one (one Apple ID behind several app users), support asks the customer who calls,
                // who knows what they pressed.
                let owner = (try? SupportDesk.look(at: id, store: app.parties.store.database, backend: app.parties.backend.database)?.payer)
                    ?? (try? app.storeRecords().first { $0.transaction.id == id }?.pressedBy) ?? nil
                log.append("support assigns \(id) to \(owner ?? "?")")
                if let owner { app.runtime.send(.assignToBuyer(transactionId: id, user: owner)) }
            }
            switch app.state.modal {
            case .unfinished: app.press(.enter)
            case .some: app.press(.escape)
            case nil:
                if app.state.hud != nil, app.state.hud?.kind.isWaiting == false { app.press(.escape) }
                // A renewal waiting for its chain's first charge stays "Confirming payment…": a person puts it in the
                // background (Esc) after a while, and the next order found at login is asked about.
                if app.state.hud?.kind == .confirming, tick % 5 == 4 { app.press(.escape) }
            }
            // Quiet: nothing of this user's pending, nothing asked, nothing scheduled by any party before the store's
            // next renewal (which is months away and comes whether or not anyone waits for it).
            // Apple's next delivery of a notification (a retry hours away, one held back) waits as long.
            let renewal = app.parties.store.nextSubscriptionEvent() ?? .distantFuture
            let delivery = serverAPI ? (try? app.parties.store.database.nextNotificationDue()) ?? nil : nil
            if app.state.pendingCount == 0, app.state.modal == nil, app.state.hud == nil, app.state.alarms.isEmpty,
               app.timers.nextDue.map({ $0 >= min(renewal, delivery ?? .distantFuture) }) ?? true { return }
        }
    }

    /// Devices whose app held nothing after their last turn. A launch adds to a device's client only what its store queue
    /// holds, so launching one again finds nothing new unless the store has something unfinished there (a renewal
    /// taken meanwhile).
    var settled: Set<String> = []
    func needsLaunch(_ device: String) throws -> Bool {
        try visited.contains(device) && !(settled.contains(device) && app.unfinishedInStore(on: device) == 0)
    }

    // Two rounds at least; more while the store still acted during the last one (a renewal that fell due on one device
    // after its turn waits in that device's queue for its next launch).
    func storeNow() throws -> [String] { try app.storeRecords().map { "\($0.transaction.id) \($0.transaction.state) \($0.finished)" } }
    var round = 0, before: [String] = []
    while try round < 2 || (storeNow() != before && round < 5) {
        round += 1
        before = try storeNow()
        for device in devices where try needsLaunch(device) {
            // Each device's app is launched once a round, as its first user; the others log in to it (C7: logging back in
            // resumes a user's orders), as people sharing a phone do. Each Apple ID is signed in there in turn: its
            // unfinished transactions come back only while it is.
            try relaunch(payers[0], faults: [], on: device)
            for appleId in appleIds.isEmpty ? [String?.none] : appleIds.map(Optional.some) {
                if let appleId {
                    if app.state.user != payers[0] { logIn(payers[0]) }
                    app.runtime.send(.intent(.signInAppleId(appleId)))
                }
                recoverLoggedInUser()
                try observe()
                for user in payers.dropFirst() {
                    logIn(user)
                    recoverLoggedInUser()
                    try observe()
                }
            }
            if try app.clientOrders().isEmpty { settled.insert(device) } else { settled.remove(device) }
        }
    }

    let records = try app.storeRecords()
    let familyCopies = try app.familyCopies()
    let credits = try app.credits()
    let key = try creditKey()
    let revoked = try app.revokedCredits().map(\.credit)
    // A refunded payment was credited, then revoked: it counts as credited.
    let creditOf = Dictionary((credits + revoked).map { (key($0.transactionId, $0.transactionId), $0) }, uniquingKeysWith: { first, _ in first })
    // A family member's copy is owed no credit of its own: the member's restore of it is (A4).
    for record in records where [.purchased, .restored].contains(record.transaction.state) && !familyCopies.contains(record.transaction.id) {
        let id = record.transaction.id
        guard let credit = creditOf[key(id, record.transaction.originalId)] else {
            broken.append("I1: \(id) paid by \(record.account ?? "?"), never credited")
            continue
        }
        if !record.finished { broken.append("I1: \(id) still unfinished after recovery") }
        // I3: a charge is credited to the app user who pressed Buy; a restore or a free re-buy credits nothing of its own
        // (the ledger keys it on what it repeats, and a policy moves what that unlocks, never the credit).
        if record.transaction.originalTransactionId == nil, record.transaction.state == .purchased, let payer = record.pressedBy, credit.user != payer {
            broken.append("I3: \(id) paid by \(payer) credited to \(credit.user)")
        }
    }
    if credits.count != Set(credits.map(\.transactionId)).count { broken.append("I2: a transaction credited twice") }
    // I3 under the policy: what a purchase unlocks goes to another app user only when they pressed Buy or Restore for a
    // transaction that repeats it (its original, or its chain), or their Restore was answered with it (in StoreKit 2,
    // AppStore.sync()'s entitlements are the transactions themselves), and never under keep.
    for move in try app.parties.backend.database.transfers() {
        let pressed = records.contains {
            (($0.pressedBy == move.to && $0.transaction.id != move.originalTransactionId) || restores.answered[move.to]?.contains($0.transaction.id) == true)
                && [.purchased, .restored].contains($0.transaction.state) && $0.transaction.originalId == move.originalTransactionId
        }
        if !pressed || move.policy == RestorePolicy.keep.rawValue {
            broken.append("I3: \(move.productId) (\(move.originalTransactionId)) moved from \(move.from) to \(move.to) under \(move.policy), who pressed nothing for it")
        }
    }
    // S10: what Apple decided stays decided: a declined Ask to Buy is never charged; an interrupted payment's
    // purchased half happens even if the app died in between (for a subscription the account is already on at a higher
    // or the same level, that half is the plan change at renewal Apple decides instead of a charge).
    for record in records where declines.ids.contains(record.transaction.id) && record.transaction.state != .failed {
        broken.append("S10: \(record.transaction.id) was declined by the parent but ended \(record.transaction.state)")
    }
    for record in records where record.transaction.error == .interrupted {
        let completed = records.contains {
            ([.purchased, .restored].contains($0.transaction.state) || $0.transaction.error == .changesAtRenewal)
                && $0.account == record.account && $0.transaction.productId == record.transaction.productId
                && $0.transaction.date >= record.transaction.date && $0.transaction.id != record.transaction.id
        }
        if !completed { broken.append("S10: \(record.transaction.id) was interrupted and its purchased half never came") }
    }
    let paid = Set(records.filter { $0.transaction.state == .purchased }.map { key($0.transaction.id, $0.transaction.id) })
    for credit in credits where !paid.contains(key(credit.transactionId, credit.transactionId)) {
        broken.append("orphan: credit \(credit.transactionId) without a payment")
    }
    // I7: what an account owns is charged once (buying it again is a free purchase of the original: S7); one Apple
    // refunded is owned no more, so buying it again is charged again.
    let owned = Set(shippedCatalog.filter(\.kind.isOwnedOnce).map(\.id))
    let ownedCharges = records.filter { $0.transaction.state == .purchased && $0.transaction.originalTransactionId == nil
                                        && owned.contains($0.transaction.productId) && !familyCopies.contains($0.transaction.id) }
    let refunded = try app.storeDetails(ownedCharges.map(\.transaction.id)).filter { $0.value.cancellationDate != nil }
    let charges = Dictionary(grouping: ownedCharges.filter { refunded[$0.transaction.id] == nil },
                             by: { "\($0.account ?? "?") \($0.transaction.productId)" })
    for (key, list) in charges where list.count > 1 { broken.append("I7: \(key) charged \(list.count) times") }
    // …nor charged while the Apple ID had it through its family (A4): a member's copy, until revoked, is owned.
    let copies = records.filter { familyCopies.contains($0.transaction.id) }
    let copyDetails = try app.storeDetails(copies.map(\.transaction.id))
    for charge in ownedCharges {
        let owning = copies.first {
            $0.account == charge.account && $0.transaction.productId == charge.transaction.productId && $0.transaction.date <= charge.transaction.date
                && (copyDetails[$0.transaction.id]?.cancellationDate.map { $0 > charge.transaction.date } ?? true)
        }
        if let owning { broken.append("I7: \(charge.account ?? "?") charged for \(charge.transaction.productId) (\(charge.transaction.id)) it owned through its family (\(owning.transaction.id))") }
    }
    broken += try subscriptionInvariants(app, records, credited: credits + revoked)
    if app.state.hud?.kind.isWaiting == true { broken.append("stuck: the HUD still shows \(app.state.hud!.kind)") }
    for device in devices where try needsLaunch(device) {
        try relaunch(nil, faults: [], on: device)
        if try !app.clientOrders().isEmpty { broken.append("I5: the \(device)'s client still holds \(try app.clientOrders().map(\.transactionId))") }
    }
    // Each check runs after every step: what broke once is said once, where it was first seen.
    var said: Set<String> = []
    broken = broken.filter { said.insert($0.replacingOccurrences(of: #"after step \d+"#, with: "", options: .regularExpression)).inserted }
    if !broken.isEmpty { broken.append("schedule: " + log.joined(separator: "; ")) }
    return broken
}

/// How many schedules to run: `IAPSIM_SCHEDULES=N` for a long campaign; 2,000 by default.
private let scheduleCount = environmentNumber("IAPSIM_SCHEDULES", default: 2_000)
private let firstSeed = environmentNumber("IAPSIM_FIRST_SEED", default: 0)
private let chunks: UInt64 = 8
/// `IAPSIM_SLICE=K/N`, K from 0 to N − 1: this process takes every Nth of those seeds from the Kth (`scripts/explore`
/// runs one process per core: two threads of one process contend for locks and spend half as much CPU again).
private let slice: (index: UInt64, count: UInt64) = {
    guard let text = ProcessInfo.processInfo.environment["IAPSIM_SLICE"] else { return (0, 1) }
    let parts = text.split(separator: "/", omittingEmptySubsequences: false).map { UInt64($0) }
    guard parts.count == 2, let index = parts[0], let count = parts[1], index < count else {
        fatalError("IAPSIM_SLICE=\(text): give K/N with K from 0 to N − 1, e.g. 0/2 and 1/2")
    }
    return (index, count)
}()

/// A whole number from the environment, or `fallback` when it is not set. Anything else stops the run, naming the
/// variable: a campaign that silently ran other seeds than it was given would report on schedules nobody asked for.
private func environmentNumber(_ name: String, default fallback: UInt64) -> UInt64 {
    guard let text = ProcessInfo.processInfo.environment[name] else { return fallback }
    guard let number = UInt64(text) else { fatalError("\(name)=\(text): give a whole number") }
    return number
}

@Suite("Invariants I1–I5 and I7 over seeded schedules: three users, faults, switches, crashes at every boundary")
struct InvariantExplorerTests {
    @Test("replay one seed with a trace (IAPSIM_SEED)", .enabled(if: ProcessInfo.processInfo.environment["IAPSIM_SEED"] != nil))
    func replay() throws {
        let seed = environmentNumber("IAPSIM_SEED", default: 0)
        let broken = try explore(seed: seed)
        #expect(broken.isEmpty, "\(broken.joined(separator: "\n"))")
    }

    /// Seeds a longer run found broken, kept so that they stay fixed:
    /// - 5041, 6009, 13409: a payment added on one device and charged while another device's app ran (the store took it
    ///   only when its own device looked again, dated as when it was due, after a subscription it should have upgraded
    ///   had renewed: two charges for one period);
    /// - 18782: another user's restore, re-delivered after a crash, used up 小明's intent, so 小明's own subscription went
    ///   to the user logged in (I3), and with it every renewal;
    /// - 4879: a renewal of alice's chain was taken while the app ran on the other device, and waited on the phone,
    ///   uncredited, for a launch there (I1);
    /// - 78403: the observer's late news of bob's payment with sandbox-1 came after sandbox-2 signed in, and alice's own
    ///   intent under sandbox-2 claimed it (I3): late news of an Apple ID signed out meanwhile now waits for it;
    /// - 84485 (the oracle's): bob's Restore was answered with the restore alice had pressed for, still unfinished, and
    ///   the transfer policy rightly moved Remove Ads to bob, who the oracle said had pressed nothing for it;
    /// - 207102: 小明 pressed Restore under sandbox-2, sandbox-1 signed in before the store answered, and its queue brought
    ///   back the Ink Theme alice had restored earlier (its callback lost): the app took it as 小明's answer, and the
    ///   share policy gave 小明 what he had asked nobody for (I3). A restore now claims nothing before its answer once
    ///   another Apple ID signed in.
    /// - 308237 (the oracle's): bob's Monthly VIP and the VIP Plus added before it were charged in the same second, the
    ///   upgrade ending Monthly's period where it began; ordered by transaction id, Plus came first and Monthly looked
    ///   like a second charge for Plus's month (I7). Charges starting together are now ordered by when they end.
    /// - 731904 (the oracle's, and the receipt's date): 小明's Ask to Buy with sandbox-2 was approved after sandbox-2's
    ///   Family Sharing copy of Remove Ads was revoked, so the store rightly charged it; but the charge was dated when
    ///   小明 asked, before the revocation, and looked like a charge for what the family owned (I7). An approved Ask to
    ///   Buy is now dated at the approval, when Apple charges (purchase_date).
    /// - 741070 (Apple's verifyReceipt): bob's Yearly VIP, upgraded to VIP Plus while its verify waited, was verified with
    ///   the receipt saved before the upgrade; its latest transactions were that receipt's, Yearly alone, so the backend
    ///   granted a year of Yearly while the store said Plus (I7). Apple answers any receipt of a chain with the chain as
    ///   it is now, and so does the store.
    /// - 955674 (Family Sharing): "Apple refunds bob's latest payment" refunded sandbox-1's family copy of Remove Ads,
    ///   which Apple never charged, while bob's own purchase of it was on its sheet; the store then rightly charged him,
    ///   but dated the charge when the sheet opened, while the copy still held (I7). Apple refunds only what it charged
    ///   (a member's copy goes with the buyer's refund), and a purchase is dated when it is charged.
    /// - 59000020: with applicationUsername dropped, support assigned sandbox-1's unclaimed Yearly VIP to 小明 and used up
    ///   his intent paid with sandbox-2, so his sandbox-2 purchase, delivered later, went to alice, logged in (I3, I7).
    ///   Support's assignment now takes only an intent that could be that payment, as the observer does.
    /// - 9796 (`scripts/explore 4000 7501`, I7): alice's VIP Plus chain on sandbox-2, its renewal refunded and neither
    ///   verified yet, was bought again by bob, whom the chain moved to; alice's renewal, verified after, went to bob.
    ///   A charge from before the resubscription stays with whom the chain was then (the move is written with its date).
    @Test("seeds a long exploration broke stay fixed", arguments: [5041, 6009, 13409, 18782, 4879, 78403, 84485, 207102, 308237, 731904, 741070, 955674, 59000020, 9796] as [UInt64])
    func foundByLongRuns(seed: UInt64) throws {
        // As they were found: with the backend reading receipts.
        let broken = try explore(seed: seed, serverAPI: false)
        #expect(broken.isEmpty, "\(broken.joined(separator: "\n"))")
    }

    /// Seeds the first long run with `--server-api` broke (`scripts/explore 20000 2000000`), each as I7: a subscription
    /// Apple refunded granted again. Its SUBSCRIBED was held back or delayed past its REFUND, which the server applied
    /// first (forgetting the refund it kept for a chain it did not know yet), and the app's verification then made the
    /// entitlement afresh. The server now sets a chain's entitlement from Apple's records whenever it credits a charge.
    /// 9100358 (`scripts/explore 3000 9100000`, I7): sandbox-2 bought Monthly VIP again while its interrupted payment's
    /// second half was due; the second half charged the month and the re-buy, numbered first, was free. The store took the
    /// lowest number of the web order line item as its charge, so the re-buy's period seemed to run on past the upgrade
    /// to VIP Plus that ended the charge's. A line item's charge is now the transaction Apple charged.
    @Test("seeds a long --server-api exploration broke stay fixed", arguments: [2001546, 2004167, 2006427, 2007571, 2012294, 2015522, 2019598, 9100358] as [UInt64])
    func foundWithServerAPI(seed: UInt64) throws {
        let broken = try explore(seed: seed)
        #expect(broken.isEmpty, "\(broken.joined(separator: "\n"))")
    }

    /// The seeds run in chunks, which Swift Testing runs side by side.
    @Test("every schedule: nothing lost, nothing doubled, the right account, finish after credit, owned charged once",
          .enabled(if: ProcessInfo.processInfo.environment["IAPSIM_SEED"] == nil), arguments: 0..<chunks)
    func exploreSchedules(chunk: UInt64) throws {
        var failures: [String] = []
        var seed = firstSeed + slice.index + chunk * slice.count
        while seed < firstSeed + scheduleCount {
            let broken = try explore(seed: seed)
            if !broken.isEmpty {
                failures.append("seed \(seed), StoreKit \(storeKitMode(seed: seed).rawValue)\(serverAPIMode(seed: seed) ? ", --server-api" : "") (replay: IAPSIM_SEED=\(seed) IAPSIM_TRACE=1 swift test --filter replay):\n  "
                                + broken.joined(separator: "\n  "))
            }
            if failures.count >= 3 { break }
            seed += chunks * slice.count
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}

/// The StoreKit a seed's schedule runs the client in: odd seeds StoreKit 2.
func storeKitMode(seed: UInt64) -> StoreKitMode { seed % 2 == 0 ? .one : .two }

/// Whether a seed's schedule runs the built-in backend as a modern server (`--server-api`): half of each StoreKit's.
func serverAPIMode(seed: UInt64) -> Bool { seed / 2 % 2 == 1 }

/// I7 for subscriptions, from Apple's records and the backend's ledger after recovery: no two charges of one account
/// in one group for overlapping periods (an upgrade ends the earlier period where the new one starts, a refund where
/// it was refunded), and each charge (a first purchase, a renewal, a resubscription, an upgrade) credited exactly
/// once, to the subscriber: the account whose purchase started the chain. A restore of a charge, or a free purchase
/// of the subscription the account has (S7), shares its web order line item, and the backend credits that key once,
/// whichever of them it verified first.
func subscriptionInvariants(_ app: Harness, _ records: [StoreRecord], credited: [Credit]) throws -> [String] {
    let terms = Dictionary(shippedCatalog.compactMap { product in product.subscription.map { (product.id, $0) } },
                           uniquingKeysWith: { first, _ in first })
    let groups = terms.mapValues(\.group)
    let paid = records.filter { [.purchased, .restored].contains($0.transaction.state) && groups[$0.transaction.productId] != nil }
    let details = try app.storeDetails(paid.map(\.transaction.id))
    let byId = Dictionary(records.map { ($0.transaction.id, $0) }, uniquingKeysWith: { first, _ in first })
    let creditsByTransaction = Dictionary(grouping: credited, by: \.transactionId)
    var broken: [String] = []
    let charged = Set(try app.charges().map(\.transaction.id))
    let moves = try app.parties.backend.database.transfers()
    let charges = paid.filter { charged.contains($0.transaction.id) }
    /// When a charge's period began: its expiry less its period. A transaction is dated when the payment was added,
    /// and Apple charges a moment later (after Ask to Buy, much later); a renewal is dated when its period starts.
    func start(_ charge: StoreRecord) -> Date {
        guard let expires = details[charge.transaction.id]?.expiresDate, let product = terms[charge.transaction.productId] else {
            return charge.transaction.date
        }
        // The offer that priced the charge: one the catalog names (promotional, win-back, a code's), else the intro offer.
        let fields = details[charge.transaction.id]
        let named = fields?.offerId.flatMap(product.offer(named:))
        let intro = named?.terms ?? (fields?.offer != nil ? product.introOffer : nil)
        let period = intro?.period ?? product.period
        let back = period.end(from: expires, count: -(intro?.mode == .payUpFront ? intro?.periods ?? 1 : 1))
        return max(charge.transaction.date, back)
    }
    /// When a charge's period ended: an upgrade ends the earlier period where the new one starts; a refund, when it was
    /// refunded.
    func end(_ charge: StoreRecord, from start: Date) -> Date {
        let fields = details[charge.transaction.id]
        return [fields?.expiresDate, fields?.cancellationDate].compactMap { $0 }.min() ?? start
    }
    for (key, list) in Dictionary(grouping: charges, by: { "\($0.account ?? "?") \(groups[$0.transaction.productId]!)" }) {
        var covered: (end: Date, by: StoreRecord)?
        // Two charges starting in the same second: the period an upgrade cut short where it began comes first.
        let periods = list.map { charge in let begun = start(charge); return (charge, begun, end(charge, from: begun)) }
        for charge in periods.sorted(by: { ($0.1, $0.2, $0.0.transaction.id) < ($1.1, $1.2, $1.0.transaction.id) }) {
            // A month from the 31st ends on the 28th: counted back, it starts a few days early, never later; the
            // transaction's own date bounds it to seconds before the charge.
            if let covered, charge.1 < covered.end.addingTimeInterval(-15) {
                broken.append("I7: \(key) charged twice for one period: \(covered.by.transaction.id) (\(covered.by.transaction.productId) until "
                              + "\(covered.end)) and \(charge.0.transaction.id) (\(charge.0.transaction.productId) from \(charge.1))")
            }
            if charge.2 > covered?.end ?? .distantPast { covered = (charge.2, charge.0) }
        }
    }
    // Who bought a chain again when it entitled nobody (its periods over or refunded): the chain is theirs from then on.
    var resubscribers: [String: [(from: Date, user: String)]] = [:]
    for (original, list) in Dictionary(grouping: charges, by: \.transaction.originalId) {
        var coveredUntil = Date.distantPast
        for charge in list.map({ charge in let begun = start(charge); return (charge, begun, end(charge, from: begun)) }).sorted(by: { $0.1 < $1.1 }) {
            if charge.0.transaction.id != original, let buyer = charge.0.pressedBy, charge.1 > coveredUntil.addingTimeInterval(1) {
                resubscribers[original, default: []].append((charge.1, buyer))
            }
            coveredUntil = max(coveredUntil, charge.2)
        }
    }
    for charge in charges {
        let id = charge.transaction.id
        let lineItem = details[id]?.webOrderLineItemId
        let sharing = paid.filter { $0.transaction.id == id || (lineItem != nil && details[$0.transaction.id]?.webOrderLineItemId == lineItem) }
        let found = sharing.flatMap { creditsByTransaction[$0.transaction.id] ?? [] }
        // The chain's owner: who pressed Buy for its first charge, whom the restore policy moved it to, or who bought it
        // again after it lapsed, from that charge on.
        let owners = Set([byId[charge.transaction.originalId]?.pressedBy ?? charge.pressedBy].compactMap { $0 })
            .union(moves.filter { $0.originalTransactionId == charge.transaction.originalId && $0.policy != "resubscribed" }.map(\.to))
            .union((resubscribers[charge.transaction.originalId] ?? []).filter { $0.from <= start(charge) }.map(\.user))
        if found.count != 1 {
            broken.append("I7: subscription charge \(id) (\(charge.transaction.productId), \(charge.transaction.originalId == id ? "first" : "renewal or change")) credited \(found.count) times")
        } else if let credit = found.first, !owners.isEmpty, !owners.contains(credit.user) {
            broken.append("I7: subscription charge \(id) credited to \(credit.user), the chain's owner is \(owners.sorted().joined(separator: " or "))")
        }
    }
    return broken
}
