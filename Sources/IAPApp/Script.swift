import AppleVocabulary
import DataFiles
import Foundation
import IAPCore
import MockBackend

/// A QA script: one step per line, `#` comments, and a header of `# key: value` lines
/// (name, shows, shows.zh, from, expect) that the scenario list reads, and `storekit` (1 or 2) that the player runs it in.
public struct Script: Sendable {
    public let name: String
    public let header: [String: String]
    public let steps: [Line]

    public struct Line: Sendable {
        public let number: Int
        public let text: String
        public let step: Step
    }

    public enum Step: Sendable, Equatable {
        case launch(user: String?)
        case login(String)
        case press([Key])
        case type(String)
        case wait(Double)
        case waitUntil(String, within: Double)
        case skip
        case fault(Fault, FaultArm)
        case clear(Fault)
        case crash
        case relaunch(user: String?)
        case reinstall
        /// Restore Purchases, as `R` on the product list.
        case restore
        /// The app relaunched on another device of the same store accounts (its own keychain, sandbox and store queue).
        case device(String, user: String?)
        case switchUser(String)
        /// Settings › App Store on the device: another Apple ID signs in (A1).
        case appleId(String)
        /// The backend's restore policy from now on (A2).
        case restorePolicy(RestorePolicy)
        /// These Apple IDs are one family from now on (A4).
        case family([String])
        /// An Apple ID leaves its family: what was shared with it, or through it, is revoked.
        case leaveFamily(String)
        case lang(Language)
        /// Apple grants a refund the customer asked for, for the reason they gave: the transaction named, else the
        /// logged-in user's latest paid one.
        case refund(String?, because: ConsumptionRequestReason)
        /// Apple decides a refund request the other way: declines it (the purchase stands; the customer's reason asked
        /// about as for a grant), or reverses a refund it granted; the named transaction, else the logged-in user's
        /// latest one it can decide on.
        case refundDecision(RefundDecision, String?, because: ConsumptionRequestReason)
        /// The team raises a subscription's price for its subscribers (App Store Connect); each must agree (`p` in `m`).
        case priceIncrease(productId: String)
        case compensate
        /// Support ties a transaction no evidence could attribute to the user Apple's records say paid.
        case assign(transactionId: String, user: String)
        case expectScreen(String, present: Bool)
        case expectCount(Count, user: String?, Int)
        /// What the store reports of the user's subscription to the product (nil: the account has none to it).
        case expectSubscription(productId: String, user: String?, SubscriptionStatus.State?)
        /// Whether the backend grants the product to the user at this moment (a subscription: by its expiry and grace).
        case expectOwned(productId: String, user: String?, Bool)
        case snapshot(String)
        /// Where `--scenario` hands the app to the person at the keyboard; `play` goes on.
        case handover
        /// Moves the product list's cursor to the `ordinal`-th product (1-based) of a kind, so that a script runs on any
        /// catalog that has one.
        case select(Product.Kind, ordinal: Int)
        /// The paywall's promotional offer for the highlighted subscription (`o` until it shows), nil: none.
        case offer(String?)
        /// An offer code redeemed outside the app, in the App Store app, by the device's Apple ID: what it brings reaches
        /// the app with no order, intent or payment of its own.
        case redeem(String)
        /// The first unredeemed one-time code of the offer, redeemed as `redeem` does (its code is not known before).
        case redeemOneTime(offerId: String)
        /// The catalog's billing grace period on or off for this run (as Xcode's Editor ▸ Enable Billing Grace Period),
        /// so that a scenario about it holds whichever catalog plays it. Before `launch`: it is how the store starts.
        case billingGrace(Bool)
    }

    /// Apple's decisions on a refund request other than granting it (`refund`).
    public enum RefundDecision: String, Sendable, CaseIterable {
        /// `refund-decline`: REFUND_DECLINED.
        case decline = "refund-decline"
        /// `refund-reverse`: REFUND_REVERSED.
        case reverse = "refund-reverse"
    }

    /// What `expect` can count in each party.
    public enum Count: String, Sendable, CaseIterable {
        /// The backend: live credits of the user.
        case credits
        /// The backend: the user's coin balance.
        case coins
        /// The client: orders the user's store still holds.
        case pending
        /// The store: unfinished transactions in Apple's queue (every user).
        case unfinished
    }

    public static func load(path: String) throws -> Script {
        let data: Data
        do {
            data = try InputFile.read(path, kind: "script", hint: "give a script file or a shipped scenario's name (`iapsim scenarios`)")
        } catch {
            throw ScriptError(file: path, line: 0, message: error.text)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ScriptError(file: path, line: 0, message: "is not UTF-8 text; save the script as UTF-8")
        }
        return try parse(text, file: path)
    }

    public static func parse(_ text: String, file: String) throws -> Script {
        var header: [String: String] = [:]
        var steps: [Line] = []
        // Any line ending: "\r\n" is one Character in Swift, so splitting on "\n" alone would read a CRLF file as one line.
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#") {
                let body = line.dropFirst().trimmingCharacters(in: .whitespaces)
                if let colon = body.firstIndex(of: ":"), steps.isEmpty {
                    let key = body[..<colon].lowercased()
                    if ["name", "shows", "shows.zh", "from", "expect", "storekit", "backend"].contains(key) {
                        let value = body[body.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                        header[key] = header[key].map { $0 + " " + value } ?? value
                        if key == "storekit", StoreKitMode(argument: value) == nil {
                            throw ScriptError(file: file, line: index + 1, message: "`# storekit:` \(StoreKitMode.notAMode(value))")
                        }
                        if key == "backend", !["server-api", "receipt"].contains(value) {
                            throw ScriptError(file: file, line: index + 1,
                                              message: "`# backend:` \"\(value)\" is not a backend mode; give server-api (a modern server) or receipt (the default)")
                        }
                    }
                }
                continue
            }
            guard !line.isEmpty else { continue }
            do {
                steps.append(Line(number: index + 1, text: line, step: try step(line)))
            } catch let error as FaultSyntaxError {
                throw ScriptError(file: file, line: index + 1, message: error.message)
            } catch let error as StepError {
                throw ScriptError(file: file, line: index + 1, message: error.message)
            }
        }
        guard !steps.isEmpty else {
            throw ScriptError(file: file, line: 0, message: "has no steps (every line is empty or a comment), so it would pass without running")
        }
        let fallback = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        let name = header["name"] ?? fallback
        guard header["name"] == nil || isPlainName(name) else {
            throw ScriptError(file: file, line: 0, message: "the scenario name \"\(name)\" is not a plain name (letters, digits, - _ and ., not starting with a dot); it names the folder its data is kept in")
        }
        return Script(name: name, header: header, steps: steps)
    }

    /// The StoreKit the script is written for (`# storekit: 2`); nil: whichever the player runs.
    public var storeKit: StoreKitMode? {
        header["storekit"].flatMap(StoreKitMode.init(argument:))
    }

    /// Whether the script runs the built-in backend as a modern server (`# backend: server-api`, as `--server-api`).
    public var serverAPIBackend: Bool { header["backend"] == "server-api" }

    /// A scenario's name becomes a folder under `DATA_DIR/scenarios/`: no separators, no `..`, nothing hidden.
    public static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64 && !name.hasPrefix(".")
            && name.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0) }
    }

    /// The longest `wait` (a year and a day: a yearly renewal), and the longest `wait until … within` (it draws the
    /// screen once a virtual second).
    public static let longestWait = 31_622_400.0, longestWaitUntil = 3_600.0

    private struct StepError: Error { let message: String }

    /// The most `expect credits|coins|pending|unfinished` counts to.
    static let mostCounted = 1_000_000_000

    private static func step(_ line: String) throws -> Step {
        let words = Self.words(line)
        let command = words[0], rest = Array(words.dropFirst())
        let argument = rest.joined(separator: " ")
        func needs(_ what: String) throws -> String {
            guard !argument.isEmpty else { throw StepError(message: "`\(command)` needs \(what)") }
            return argument
        }
        func number(_ text: String?, upTo limit: Double, named name: String? = nil) throws -> Double {
            // Renewals are months apart: `wait 31d` says what `wait 2678400` hides.
            let units: [Character: Double] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]
            let unit = text?.last.flatMap { units[$0] }
            let digits = text.map { unit == nil ? $0 : String($0.dropLast()) } ?? ""
            // Decimal digits only: Double() would also read 0x10, 1e3 and "infinity".
            let decimal = digits.split(separator: ".", omittingEmptySubsequences: false)
            guard text != nil, (1...2).contains(decimal.count), decimal.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
                  let value = Double(digits).map({ $0 * (unit ?? 1) }), value.isFinite, value <= limit else {
                throw StepError(message: "`\(name ?? command)` needs a number of seconds from 0 to \(Int(limit)) (or of m, h, d), not \"\(text ?? "")\"")
            }
            return value
        }
        func user(_ text: String) throws -> String {
            // `""` is an empty name, not a name of two quotes.
            let name = try unquote(text)
            do { return try UserName.normalized(name) } catch { throw StepError(message: "`\(command)`: \(error)") }
        }
        func nothingMore() throws {
            guard rest.isEmpty else { throw StepError(message: "`\(command)` takes nothing, not \"\(argument)\"") }
        }
        func atMostAUser() throws -> String? {
            guard rest.count <= 1 else { throw StepError(message: "`\(command)` takes at most a user name, not \"\(argument)\"") }
            return try rest.first.map(user)
        }
        switch command {
        case "launch": return .launch(user: try atMostAUser())
        case "login": return .login(try user(needs("a user name")))
        case "press":
            guard !rest.isEmpty else { throw StepError(message: "`press` needs at least one key (Enter, Esc, Up, Down, Left, Right, Tab, Backspace, Space, one character or @command)") }
            return .press(try rest.map(key))
        case "type": return .type(try needs("text"))
        case "wait":
            if rest.first == "until" {
                // wait until TEXT [within N]
                var words = Array(rest.dropFirst())
                var limit = 120.0
                if words.count >= 2, words[words.count - 2] == "within" {
                    limit = try number(words.last, upTo: longestWaitUntil, named: "within")
                    words.removeLast(2)
                } else if words.count >= 3, words[words.count - 3] == "within" {
                    throw StepError(message: "`within` takes one number, e.g. `within 5s` (no space before the unit), not \"\(words.suffix(2).joined(separator: " "))\"")
                }
                let text = try unquote(words.joined(separator: " "))
                guard !text.isEmpty else { throw StepError(message: "`wait until` needs the text to wait for") }
                return .waitUntil(text, within: limit)
            }
            guard rest.count <= 1 else { throw StepError(message: "`wait` takes one number, e.g. `wait 1d` (no space before the unit), not \"\(argument)\"") }
            return .wait(try number(rest.first, upTo: longestWait))
        case "skip":
            try nothingMore()
            return .skip
        case "fault":
            let (fault, arm) = try ArmedFaults.parse(try needs("a fault"))
            return .fault(fault, arm)
        case "clear":
            guard let fault = Fault(rawValue: try needs("a fault")) else { throw StepError(message: "unknown fault \"\(argument)\"") }
            return .clear(fault)
        case "crash":
            try nothingMore()
            return .crash
        case "relaunch": return .relaunch(user: try atMostAUser())
        case "reinstall":
            try nothingMore()
            return .reinstall
        case "restore":
            try nothingMore()
            return .restore
        case "device":
            guard let name = rest.first, rest.count <= 2 else {
                throw StepError(message: "`device` takes a device name and, if someone is to be logged in, a user name, not \"\(argument)\"")
            }
            guard isPlainName(name) else {
                throw StepError(message: "`device`: \"\(name)\" is not a plain name (letters, digits, - _ and ., not starting with a dot); it names the device's folder")
            }
            return .device(name, user: try rest.dropFirst().first.map(user))
        case "switch-user": return .switchUser(try user(needs("a user name")))
        case "apple-id":
            guard rest.count == 1 else { throw StepError(message: "`apple-id` takes one Apple ID (a sandbox tester's name), e.g. `apple-id sandbox-2`") }
            return .appleId(try user(rest[0]))
        case "family":
            guard rest.count >= 2, Set(rest).count == rest.count else {
                throw StepError(message: "`family` takes two or more different Apple IDs, e.g. `family sandbox-1 sandbox-2`")
            }
            return .family(try rest.map(user))
        case "leave-family":
            guard rest.count == 1 else { throw StepError(message: "`leave-family` takes one Apple ID, e.g. `leave-family sandbox-2`") }
            return .leaveFamily(try user(rest[0]))
        case "restore-policy":
            guard rest.count == 1, let policy = RestorePolicy(rawValue: rest[0]) else {
                throw StepError(message: "`restore-policy` takes transfer, keep or share, not \"\(argument)\"")
            }
            return .restorePolicy(policy)
        case "lang":
            guard let lang = Language(rawValue: try needs("en or zh")) else { throw StepError(message: "`lang` takes en or zh") }
            return .lang(lang)
        case "refund", "refund-decline":
            // The customer's request: which purchase, and the reason they chose on Apple's refund sheet.
            let reasons = ConsumptionRequestReason.allCases.map(\.argument).joined(separator: ", ")
            let transaction = rest.first.flatMap { $0.allSatisfy(\.isNumber) ? $0 : nil }
            let words = rest.dropFirst(transaction == nil ? 0 : 1)
            guard words.count <= 1, let reason = words.first.map(ConsumptionRequestReason.init(argument:)) ?? .OTHER else {
                throw StepError(message: "`\(command)` takes at most a transaction id (digits) and the customer's reason (\(reasons)), "
                                + "e.g. `\(command) 1000000001 unintended-purchase`")
            }
            return command == "refund" ? .refund(transaction, because: reason) : .refundDecision(.decline, transaction, because: reason)
        case "refund-reverse":
            guard rest.count <= 1, rest.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) else {
                throw StepError(message: "`\(command)` takes at most a transaction id (digits), e.g. `\(command) 1000000001`")
            }
            return .refundDecision(.reverse, rest.first, because: .OTHER)
        case "price-increase":
            guard rest.count == 1 else {
                throw StepError(message: "`price-increase` takes one subscription's product id, e.g. `price-increase com.iapsim.vip.monthly`")
            }
            return .priceIncrease(productId: rest[0])
        case "compensate":
            try nothingMore()
            return .compensate
        case "assign":
            guard rest.count == 2 else { throw StepError(message: "`assign` takes a transaction id and a user name, e.g. `assign 1000000002 bob`") }
            guard rest[0].allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw StepError(message: "`assign` takes a transaction id (digits) first, e.g. `assign 1000000002 bob`, not \"\(rest[0])\"")
            }
            return .assign(transactionId: rest[0], user: try user(rest[1]))
        case "snapshot":
            let name = try needs("a name")
            guard isPlainName(name) else {
                throw StepError(message: "`snapshot`: \"\(name)\" is not a plain name (letters, digits, - _ and ., not starting with a dot); it names the file in --snapshots")
            }
            return .snapshot(name)
        case "handover":
            try nothingMore()
            return .handover
        case "select":
            let kinds = Product.Kind.allCases.map(\.rawValue).joined(separator: ", ")
            guard let first = rest.first, let kind = Product.Kind(rawValue: first), rest.count <= 2 else {
                throw StepError(message: "`select` needs a product kind (\(kinds)) and optionally which one, e.g. `select non-consumable 2`")
            }
            let ordinal = rest.count == 2 ? Int(rest[1]) : 1
            guard let ordinal, (1...1000).contains(ordinal) else {
                throw StepError(message: "`select \(first)` takes which one as a whole number 1 to 1000, not \"\(rest[1])\"")
            }
            return .select(kind, ordinal: ordinal)
        case "offer":
            guard rest.count == 1, !rest[0].isEmpty else {
                throw StepError(message: "`offer` takes a promotional offer's identifier (see `iapsim catalog`), or none, e.g. `offer welcome_back`")
            }
            return .offer(rest[0] == "none" ? nil : rest[0])
        case "redeem":
            if rest.count == 2, rest[0] == "one-time", !rest[1].isEmpty { return .redeemOneTime(offerId: rest[1]) }
            guard rest.count == 1, !rest[0].isEmpty, rest[0] != "one-time" else {
                throw StepError(message: "`redeem` takes an offer code (see `iapsim catalog`), e.g. `redeem VIPSPRING`, or `one-time` and an offer of "
                                + "one-time codes, e.g. `redeem one-time VIP_PRESS`")
            }
            return .redeem(rest[0])
        case "billing-grace":
            guard rest.count == 1, let on = ["on": true, "off": false][rest[0]] else {
                throw StepError(message: "`billing-grace` takes on or off, not \"\(argument)\"")
            }
            return .billingGrace(on)
        case "expect":
            if rest.first == "screen" || (rest.first == "no" && rest.dropFirst().first == "screen") {
                let present = rest.first == "screen"
                let text = try unquote(rest.dropFirst(present ? 1 : 2).joined(separator: " "))
                guard !text.isEmpty else { throw StepError(message: "`expect screen` needs the text to look for") }
                return .expectScreen(text, present: present)
            }
            if rest.first == "subscription" {
                // expect subscription [USER] PRODUCT STATE
                let states = ["none"] + SubscriptionStatus.State.allCases.map(\.rawValue)
                guard rest.count == 3 || rest.count == 4, let state = rest.last, states.contains(state) else {
                    throw StepError(message: "`expect subscription` takes [USER] PRODUCT and one of \(states.joined(separator: ", "))")
                }
                return .expectSubscription(productId: rest[rest.count - 2], user: rest.count == 4 ? try user(rest[1]) : nil,
                                           SubscriptionStatus.State(rawValue: state))
            }
            if rest.first == "owned" || (rest.first == "not" && rest.dropFirst().first == "owned") {
                // expect [not] owned [USER] PRODUCT
                let owned = rest.first == "owned"
                let words = Array(rest.dropFirst(owned ? 1 : 2))
                guard words.count == 1 || words.count == 2 else {
                    throw StepError(message: "`expect \(owned ? "" : "not ")owned` takes [USER] PRODUCT")
                }
                return .expectOwned(productId: words[words.count - 1], user: words.count == 2 ? try user(words[0]) : nil, owned)
            }
            // expect COUNT [USER] N
            if let what = rest.first.flatMap(Count.init), rest.count == 2 || rest.count == 3, Int(rest.last!).map({ (0...Self.mostCounted).contains($0) }) != true {
                throw StepError(message: "`expect \(what.rawValue)` counts with a whole number 0 to \(Self.mostCounted), not \"\(rest.last!)\"")
            }
            guard let what = rest.first.flatMap(Count.init), rest.count == 2 || rest.count == 3, let value = Int(rest.last!) else {
                throw StepError(message: "`expect` takes `screen TEXT`, `no screen TEXT`, `\(Count.allCases.map(\.rawValue).joined(separator: "|")) [USER] N`, `subscription [USER] PRODUCT STATE` or `[not] owned [USER] PRODUCT`")
            }
            return .expectCount(what, user: rest.count == 3 ? try user(rest[1]) : nil, value)
        default:
            throw StepError(message: "unknown step `\(command)`")
        }
    }

    /// A step's words: split at spaces, but for a run in double quotes ("Max S", a user name the login takes), which is
    /// one word, its quotes kept for `unquote`.
    private static func words(_ line: String) -> [String] {
        var words: [String] = [], word = "", quoted = false
        for c in line {
            if c == "\"" { quoted.toggle() }
            if c == " ", !quoted {
                if !word.isEmpty { words.append(word) }
                word = ""
            } else {
                word.append(c)
            }
        }
        return word.isEmpty ? words : words + [word]
    }

    /// `"TEXT"` or TEXT; a quote that opens without closing (or closes without opening) is a mistake, not text.
    private static func unquote(_ text: String) throws -> String {
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { return String(text.dropFirst().dropLast()) }
        if text.hasPrefix("\"") || text.hasSuffix("\"") {
            throw StepError(message: "unterminated quote in \(text): write \"TEXT\" with a quote at each end")
        }
        return text
    }

    /// Key names as scripts write them: Enter, Esc, Up, Down, Left, Right, Tab, Backspace, or one character.
    static func key(_ word: String) throws -> Key {
        if word.hasPrefix("@"), word.count > 1 {
            guard let command = Command(rawValue: String(word.dropFirst())), let key = Keymap.key(for: command) else {
                throw StepError(message: "unknown command \"\(word)\" (one of \(Command.allCases.map { "@" + $0.rawValue }.joined(separator: ", ")))")
            }
            return key
        }
        switch word.lowercased() {
        case "enter": return .enter
        case "esc", "escape": return .escape
        case "up": return .up
        case "down": return .down
        case "left": return .left
        case "right": return .right
        case "tab": return .tab
        case "pgup", "pageup": return .pageUp
        case "pgdn", "pagedown": return .pageDown
        case "home": return .home
        case "end": return .end
        case "backspace": return .backspace
        case "space": return .char(" ")
        default:
            guard word.count == 1, let c = word.first else {
                throw StepError(message: "unknown key \"\(word)\" (Enter, Esc, Up, Down, Left, Right, Tab, Backspace, Space, PgUp, PgDn, Home, End or one character)")
            }
            return .char(c)
        }
    }
}

public struct ScriptError: Error, CustomStringConvertible {
    public let file: String
    public let line: Int
    public let message: String
    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
}
