import Foundation

/// The one rule for a user name, wherever it comes from (the login screen, `--user`, a script): trimmed,
/// 1 to 24 characters of letters, digits, punctuation and inner spaces, Unicode-normalized (NFC) so that a
/// precomposed and a decomposed "José" are one account.
public enum UserName {
    public static let maximumLength = 24

    /// A character the login screen lets a person type.
    public static func allows(_ c: Character) -> Bool {
        !c.isNewline && (c.isLetter || c.isNumber || c.isPunctuation || c == " ")
    }

    public static func normalized(_ raw: String) throws(UserNameError) -> String {
        let name = isTrimmedASCII(raw) ? raw : raw.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
        guard !name.isEmpty, name.count <= maximumLength, name.allSatisfy(allows) else { throw UserNameError(given: raw) }
        return name
    }

    /// Printable ASCII with no space at either end is already trimmed and in NFC: Foundation's trimming and
    /// normalization (through NSString, with runtime lookups at their first use) would give it back unchanged.
    private static func isTrimmedASCII(_ raw: String) -> Bool {
        let bytes = raw.utf8
        guard let first = bytes.first, let last = bytes.last, first != 0x20, last != 0x20 else { return false }
        return bytes.allSatisfy { (0x20...0x7E).contains($0) }
    }
}

public struct UserNameError: Error, Sendable, CustomStringConvertible {
    public let given: String

    public var description: String {
        let shown = given.count > 30 ? String(given.prefix(29)) + "…" : given
        let escaped = shown.visiblyEscaped
        return "a user name is 1 to \(UserName.maximumLength) letters, digits or punctuation (spaces only inside), not \"\(escaped)\""
    }
}
