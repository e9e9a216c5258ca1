import Foundation

/// URLs as iapsim prints them (on screen, in the timeline, in `state`, in an error): whatever credentials one carries
/// (`user:password@`) are written `***`, so that a password never reaches a screen, a log or a screenshot.
public enum ShownURL {
    /// `text` with the credentials of every URL in it written `***`: a URL alone, or a message quoting what was typed.
    public static func redacting(in text: String) -> String {
        guard text.contains("@") else { return text }
        let schemed = credentials.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "$1***@")
        return bare.stringByReplacingMatches(in: schemed, range: NSRange(schemed.startIndex..., in: schemed), withTemplate: "$1***@")
    }

    /// `scheme://userinfo@`.
    private static let credentials = try! NSRegularExpression(pattern: #"([A-Za-z][A-Za-z0-9+.-]*://)[^/?#\s@'"]+@"#)
    /// `user:password@host` typed without a scheme: a colon before the `@` tells it from a mail address.
    private static let bare = try! NSRegularExpression(pattern: #"(^|[\s'"(])[^\s'"/@:*]+:[^\s'"/@]+@"#)
}
