import DataFiles
import Foundation
import IAPCore

/// A mistake on the command line found while running, already said in full.
public struct CommandLineError: Error, CustomStringConvertible {
    public let description: String

    public init(description: String) {
        self.description = description
    }
}

public enum Console {
    /// The exit status of a mistake on the command line (sysexits' EX_USAGE, as ArgumentParser exits on one).
    public static let usageFailure: Int32 = 64

    /// Undoes what a command created before it failed (a data directory, its lock file); nil once the command is under way.
    nonisolated(unsafe) public static var undoOnFailure: (() -> Void)?

    /// What must happen before a failure is said: the terminal given back once the app has taken it.
    nonisolated(unsafe) public static var beforeSaying: (() -> Void)?

    public static func fail(_ message: String, code: Int32 = 1) -> Never {
        beforeSaying?()
        undoOnFailure?()
        say(message)
        Foundation.exit(code)
    }

    /// An error as a person reads it: a database's own code explained (locked, disk full), anything else as it says.
    /// `file`: the data file (or folder) a database's own error is about, when the error does not say.
    public static func fail(_ error: any Error, file: String? = nil, code: Int32 = 1) -> Never {
        fail(describe(error, file: file), code: code)
    }

    public static func describe(_ error: any Error, file: String? = nil) -> String {
        DataFile.describe(error, path: file)
    }

    public static func warn(_ message: String) {
        say("warning: " + message)
    }

    /// One line on stderr, whatever the message holds: a line break in a path is written as `\n`, and a URL's
    /// credentials as `***` (the message may quote what was typed).
    private static func say(_ message: String) {
        FileHandle.standardError.write(Data("iapsim: \(oneLine(ShownURL.redacting(in: message)))\n".utf8))
    }

    public static func oneLine(_ text: String) -> String {
        text.replacingOccurrences(of: "\r\n", with: "\\n").replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\r", with: "\\r")
    }

    /// The command is under way: what it created stays, whatever happens next.
    public static func keepWhatWasMade() {
        undoOnFailure = nil
    }
}

/// A number option checked at the edge: finite and in range, the range in the message.
public func number(_ text: String, option: String, in range: ClosedRange<Double>, whole: Bool = false) throws -> Double {
    let shown = whole ? "\(Int(range.lowerBound)) to \(Int(range.upperBound))" : "\(range.lowerBound.written) to \(range.upperBound.written)"
    // The next option, taken for the value left out (the option takes what follows it, so that "-5" is a number).
    if text.hasPrefix("--") { throw CommandLineError(description: "\(option) needs a value: \(shown)") }
    guard let value = Double(decimal: text), value.isFinite, range.contains(value), !whole || value.rounded() == value else {
        throw CommandLineError(description: "\(option) takes \(whole ? "a whole number " : "")\(shown), not \"\(text)\"")
    }
    return value
}

