import DataFiles
import Foundation
import IAPApp
import IAPCore
import IAPUI
import MockBackend
import Terminal

extension LaunchSettings {
    /// Where a benchmark's launch quits: after the launch screen, or after the first frame that shows the products or,
    /// into a backlog, the prompt to continue an unfinished order.
    public enum BenchmarkExit: Sendable { case launchScreen, products }

    /// Starts the app on the terminal and runs it until it quits, crashes on purpose or is signalled; exits as a shell
    /// expects. `iapsim run` launches with the defaults; `iapsim-bench` launches the same way with the parties answering
    /// at once, quits where it is told (`exitAfter`), and may use the terminal once more (`beforeClosing`).
    public func launch(latency: Parties.Latency = Parties.Latency(), exitAfter: BenchmarkExit? = nil,
                       beforeClosing: (AppSession, TerminalSession, Theme) throws -> Void = { _, _, _ in }) throws {
        setlocale(LC_ALL, "")
        // Everything that can be checked is checked before the terminal and the data directory are touched: a mistake
        // on the command line is named as such (exit 64) whatever runs it, and a failure leaves nothing behind.
        var user = user
        do { user = try user.map(UserName.normalized) } catch { Console.fail("--user: \(error)", code: Console.usageFailure) }
        var appleId = appleId
        do { appleId = try appleId.map(UserName.normalized) } catch { Console.fail("--apple-id: \(error)", code: Console.usageFailure) }
        var policy: RestorePolicy?
        if let given = restorePolicy {
            guard let known = RestorePolicy(rawValue: given) else {
                Console.fail("--restore-policy: \"\(given)\" is not a policy; give transfer, keep or share", code: Console.usageFailure)
            }
            policy = known
        }
        var members: [String] = []
        if let family {
            do { members = try family.split(separator: ",", omittingEmptySubsequences: false).map { try UserName.normalized(String($0)) } } catch {
                Console.fail("--family: \(error); give Apple IDs separated by commas, e.g. --family sandbox-1,sandbox-2", code: Console.usageFailure)
            }
            guard Set(members).count >= 2, Set(members).count == members.count else {
                Console.fail("--family: \"\(family)\" names no two different Apple IDs; give them separated by commas, e.g. --family sandbox-1,sandbox-2",
                             code: Console.usageFailure)
            }
        }
        var storeKitMode = StoreKitMode.one
        if let given = storeKit {
            guard let mode = StoreKitMode(argument: given) else {
                Console.fail("--storekit: \(StoreKitMode.notAMode(given))", code: Console.usageFailure)
            }
            storeKitMode = mode
        }
        if let device, !Script.isPlainName(device) {
            Console.fail("--device: \"\(device)\" is not a plain name (letters, digits, - _ and ., not starting with a dot); it names the device's folder",
                         code: Console.usageFailure)
        }
        let notify = NotifyURL.checked(notify)
        if serverAPI, backend != nil {
            Console.fail("--server-api: it sets how the built-in backend works, and --backend replaces that backend with your server; give one of them",
                         code: Console.usageFailure)
        }
        if serverAPI, notify != nil {
            Console.fail("--server-api: the built-in backend is then the server Apple notifies, and --notify names another (Apple notifies one URL); give one of them",
                         code: Console.usageFailure)
        }
        if let scenario {
            do { _ = try Scenarios.script(scenario) } catch { Console.fail("--scenario: \(error)", code: Console.usageFailure) }
            if user != nil {
                Console.fail("--scenario: a scenario hands the app over logged in as its script left it, so --user would be ignored; leave out --user (L logs in another user)",
                             code: Console.usageFailure)
            }
            if !faults.isEmpty {
                Console.fail("--scenario: a scenario hands the app over with the faults its script armed, so --fault would be ignored; leave out --fault (F arms more once it is handed over)",
                             code: Console.usageFailure)
            }
        }
        guard isatty(0) == 1, isatty(1) == 1 else {
            Console.fail("needs an interactive terminal (stdin and stdout must be a TTY); `iapsim state` prints the data without one", code: 2)
        }
        do { try TerminalSession.check() } catch { Console.fail(error) }
        // A given catalog is read before the terminal is taken, so that its mistakes and warnings are plain lines; the
        // shipped one, which the tests check, after the launch screen.
        let givenCatalog = catalog.map(CatalogFile.imported)
        if let givenCatalog { CatalogFile.warn(givenCatalog, path: catalog) }
        let armed = FaultSpec.armed(self.faults)
        // Asked again when the wire binds it (another program may take it meanwhile), but first before anything is
        // opened or made, so that a port in use leaves nothing behind.
        if let serve { PortNumber.failUnlessFree(serve, option: "--serve") }
        let folder = DataFolder.locked(dataDir)
        let directory = device.map(folder.on(device:)) ?? folder
        // The wire, when this launch asks for it (`iapsim-wire` provides it).
        var wire: (any WirePart)?
        if backend != nil || serve != nil || notify != nil {
            guard let make = WireParts.make else {
                Console.fail("--serve, --backend and --notify run in iapsim-wire, which this binary could not start; build it with scripts/build-release iapsim-wire")
            }
            wire = make()
        }
        let (terminal, launchTheme) = showLaunchScreen()
        var theme = launchTheme
        if exitAfter == .launchScreen {
            terminal.close()
            Foundation.exit(0)
        }

        // What the files' last clean close vouches for is read once the launch screen is up: only their opening needs it.
        DataFile.trust(directory.closedCleanly())
        // The shipped catalog is read on the other core while the parties' files open here (a scenario opens its own).
        let shippedCatalog = givenCatalog == nil ? WorkAside { CatalogFile.read(nil) } : nil
        let files: PartyFiles?
        do { files = scenario == nil ? try PartyFiles.open(in: directory) : nil } catch { Console.fail(error) }
        let imported = givenCatalog ?? CatalogFile.imported(shippedCatalog!.result())
        let products = imported.products
        theme.ascii?.yen = imported.currency == "JPY" ? "JPY" : "CNY"
        var options = AppState(lang: lang, serialPurchases: !parallel, storeKit: storeKitMode)
        options.serverAPIBackend = serverAPI
        let speed = speed ?? imported.speed ?? 1
        // The catalog's settings arm their faults at launch; a --fault of the same name says how.
        var faults = imported.faults
        for fault in armed { faults.insert(fault, armed.arm(fault) ?? FaultArm()) }
        /// A shipped scenario set up on its own data, in the language the app speaks at that moment, its lists where
        /// they were left.
        let setUpScenario = { (name: String, now: AppState) throws -> AppSession in
            var options = options
            options.lang = now.lang
            options.panelRows = now.panelRows
            return try Scenarios.setUp(name, under: directory, catalog: products, options: options, speed: speed)
        }

        // Only another device or a scenario makes folders under the data folder.
        if device != nil || scenario != nil { FoldersMadeHere(in: folder.path).removedOnFailure() }
        let remote = backend.map { wire?.remoteBackend(url: $0) } ?? nil
        let session: AppSession
        do {
            if let scenario {
                session = try setUpScenario(scenario, options)
            } else {
                session = try AppSession(directory: directory, catalog: products, options: options, faults: faults,
                                         user: user, appleId: appleId, firstAppleId: AppleID.testers[0], latency: latency, clock: .live(speed: speed), backend: remote,
                                         notifying: notify != nil, files: files)
            }
        } catch {
            Console.fail(error)
        }
        if let policy { session.parties.backend.restorePolicy = policy }
        if !members.isEmpty { _ = session.parties.store.joinFamily(members) }

        // A port in use is said in one line, like any other mistake (the terminal given back first).
        if let serve, let failure = wire?.serve(port: serve, session: session, catalog: products) {
            try? session.close()
            Console.fail("--serve: \(failure)")
        }
        if let notify { wire?.notify(url: notify) }

        Console.keepWhatWasMade()
        var loop = MainLoop(session: session, terminal: terminal, theme: theme, exitAfterFirstFrame: exitAfter == .products)
        loop.startScenario = setUpScenario
        loop.wire = wire
        let ending = loop.run()
        wire?.stop()
        try beforeClosing(loop.session, terminal, theme)
        terminal.close()
        switch ending {
        case let .crashed(reason):
            // In the language the app spoke when it died: the line a demo ends on.
            let said = Localized(en: "crashed on purpose (\(reason.en)); run iapsim again to see the recovery",
                                 zh: "已按要求崩溃(\(reason.zh));再次运行 iapsim 即可看到恢复过程")
            Console.fail(said[loop.session.state.lang], code: 137)
        case let .signal(number):
            // As a shell reports a process a signal ended: 128 + N (SIGINT 130, SIGTERM 143).
            Foundation.exit(128 + number)
        case .quit:
            // Closed here rather than when the session is dropped, so that the next launch knows the files are as iapsim
            // left them; a crash or a signal leaves them as a kill would.
            do {
                try loop.session.close()
                directory.recordClosedCleanly(loop.session.directory)
            } catch {
                Console.fail(error)
            }
            // Nothing is left to do: taking the app's objects apart (a backlog's worth of state) would only delay the exit.
            Foundation.exit(0)
        }
    }

    /// The launch screen, before any party's file is read, as a phone shows an app's at once; the app's first state
    /// replaces it. From here a failure gives the terminal back before it is said.
    private func showLaunchScreen() -> (TerminalSession, Theme) {
        let monochrome = !TerminalSession.environment("NO_COLOR").isEmpty
        let terminal: TerminalSession
        do {
            terminal = try TerminalSession(monochrome: monochrome)
        } catch {
            Console.fail(error)
        }
        Console.beforeSaying = terminal.close
        var theme: Theme = monochrome ? .monochrome : .color
        // A terminal whose locale is not UTF-8 (LANG=C) cannot draw frames, CJK or currency symbols: ASCII stands in
        // (its yen is the catalog's, set once the catalog is read).
        if String(cString: nl_langinfo(nl_item(CODESET))) != "UTF-8" {
            theme.ascii = ASCIIText()
        }
        let size = terminal.size
        terminal.draw(Renderer.launchScreen(lang: lang, width: size.width, height: size.height, theme: theme))
        return (terminal, theme)
    }
}
