import Foundation
import IAPCore

/// A QA script: one step per line, `#` comments, and a header of `# key: value` lines
/// (name, shows, shows.zh, from, expect) that the scenario list reads.
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
        case switchUser(String)
        case lang(Language)
        case refund
        case compensate
        /// Support ties a transaction no evidence could attribute to the user Apple's records say paid.
        case assign(transactionId: String, user: String)
        case expectScreen(String, present: Bool)
        case expectCount(Count, user: String?, Int)
        case snapshot(String)
        /// Where `--scenario` hands the app to the person at the keyboard; `play` goes on.
        case handover
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
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw ScriptError(file: path, line: 0, message: "cannot read the script: \(error.localizedDescription)")
        }
        return try parse(text, file: path)
    }

    public static func parse(_ text: String, file: String) throws -> Script {
        var header: [String: String] = [:]
        var steps: [Line] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#") {
                let body = line.dropFirst().trimmingCharacters(in: .whitespaces)
                if let colon = body.firstIndex(of: ":"), steps.isEmpty {
                    let key = body[..<colon].lowercased()
                    if ["name", "shows", "shows.zh", "from", "expect"].contains(key) {
                        let value = body[body.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                        header[key] = header[key].map { $0 + " " + value } ?? value
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
        let fallback = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        return Script(name: header["name"] ?? fallback, header: header, steps: steps)
    }

    private struct StepError: Error { let message: String }

    private static func step(_ line: String) throws -> Step {
        let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let command = words[0], rest = Array(words.dropFirst())
        let argument = rest.joined(separator: " ")
        func needs(_ what: String) throws -> String {
            guard !argument.isEmpty else { throw StepError(message: "`\(command)` needs \(what)") }
            return argument
        }
        func number(_ text: String?) throws -> Double {
            guard let text, let value = Double(text.hasSuffix("s") ? String(text.dropLast()) : text), value >= 0 else {
                throw StepError(message: "`\(command)` needs a number of seconds, not \"\(text ?? "")\"")
            }
            return value
        }
        switch command {
        case "launch": return .launch(user: rest.first)
        case "login": return .login(try needs("a user name"))
        case "press": return .press(try rest.map(key))
        case "type": return .type(try needs("text"))
        case "wait":
            if rest.first == "until" {
                // wait until TEXT [within N]
                var words = Array(rest.dropFirst())
                var limit = 120.0
                if words.count >= 2, words[words.count - 2] == "within" {
                    limit = try number(words.last)
                    words.removeLast(2)
                }
                let text = unquote(words.joined(separator: " "))
                guard !text.isEmpty else { throw StepError(message: "`wait until` needs the text to wait for") }
                return .waitUntil(text, within: limit)
            }
            return .wait(try number(rest.first))
        case "skip": return .skip
        case "fault":
            let (fault, arm) = try ArmedFaults.parse(try needs("a fault"))
            return .fault(fault, arm)
        case "clear":
            guard let fault = Fault(rawValue: try needs("a fault")) else { throw StepError(message: "unknown fault \"\(argument)\"") }
            return .clear(fault)
        case "crash": return .crash
        case "relaunch": return .relaunch(user: rest.first)
        case "reinstall": return .reinstall
        case "switch-user": return .switchUser(try needs("a user name"))
        case "lang":
            guard let lang = Language(rawValue: try needs("en or zh")) else { throw StepError(message: "`lang` takes en or zh") }
            return .lang(lang)
        case "refund": return .refund
        case "compensate": return .compensate
        case "assign":
            guard rest.count == 2 else { throw StepError(message: "`assign` takes a transaction id and a user name") }
            return .assign(transactionId: rest[0], user: rest[1])
        case "snapshot": return .snapshot(try needs("a name"))
        case "handover": return .handover
        case "expect":
            if rest.first == "screen" || (rest.first == "no" && rest.dropFirst().first == "screen") {
                let present = rest.first == "screen"
                let text = unquote(rest.dropFirst(present ? 1 : 2).joined(separator: " "))
                guard !text.isEmpty else { throw StepError(message: "`expect screen` needs the text to look for") }
                return .expectScreen(text, present: present)
            }
            // expect COUNT [USER] N
            guard let what = rest.first.flatMap(Count.init), rest.count == 2 || rest.count == 3, let value = Int(rest.last!) else {
                throw StepError(message: "`expect` takes `screen TEXT`, `no screen TEXT` or `\(Count.allCases.map(\.rawValue).joined(separator: "|")) [USER] N`")
            }
            return .expectCount(what, user: rest.count == 3 ? rest[1] : nil, value)
        default:
            throw StepError(message: "unknown step `\(command)`")
        }
    }

    private static func unquote(_ text: String) -> String {
        text.count >= 2 && text.hasPrefix("\"") && text.hasSuffix("\"") ? String(text.dropFirst().dropLast()) : text
    }

    /// Key names as scripts write them: Enter, Esc, Up, Down, Left, Right, Tab, Backspace, or one character.
    static func key(_ word: String) throws -> Key {
        switch word.lowercased() {
        case "enter": return .enter
        case "esc", "escape": return .escape
        case "up": return .up
        case "down": return .down
        case "left": return .left
        case "right": return .right
        case "tab": return .tab
        case "backspace": return .backspace
        case "space": return .char(" ")
        default:
            guard word.count == 1, let c = word.first else {
                throw StepError(message: "unknown key \"\(word)\" (Enter, Esc, Up, Down, Left, Right, Tab, Backspace, Space or one character)")
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
