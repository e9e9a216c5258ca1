import Foundation
import Testing

/// An app receipt as `openssl asn1parse` shows it: DER whose strings (product ids, transaction ids, dates) can be read,
/// and changed in place by someone forging one.
struct ReceiptDER {
    let bytes: [UInt8]

    init(_ base64: String) throws {
        bytes = [UInt8](try #require(Data(base64Encoded: base64)))
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    var base64: String { Data(bytes).base64EncodedString() }

    func contains(_ text: String) -> Bool { bytes.firstRange(of: Array(text.utf8)) != nil }

    /// The same length keeps the DER well-formed, so that only the signature can tell.
    func replacing(_ text: String, with other: String) -> ReceiptDER {
        precondition(text.utf8.count == other.utf8.count)
        return ReceiptDER(bytes: bytes.replacing(Array(text.utf8), with: Array(other.utf8)))
    }
}
