import Foundation

/// JWS's base64url, without padding: Foundation's base64, its two letters and padding changed byte by byte. Going
/// through `String`'s characters instead cost more than the signature itself.
public enum Base64URL {
    public static func encode(_ bytes: some ContiguousBytes) -> String {
        // In an array: `Data`'s subscript, byte by byte, was most of the encoding's cost.
        var text = Array(bytes.withUnsafeBytes { Data($0) }.base64EncodedData())
        while text.last == UInt8(ascii: "=") { text.removeLast() }
        for index in text.indices {
            switch text[index] {
            case UInt8(ascii: "+"): text[index] = UInt8(ascii: "-")
            case UInt8(ascii: "/"): text[index] = UInt8(ascii: "_")
            default: break
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of base64url text, padded or not; nil when it is not base64url.
    public static func decode(_ text: Substring) -> Data? {
        var base64 = Array(text.utf8)
        for index in base64.indices {
            switch base64[index] {
            case UInt8(ascii: "-"): base64[index] = UInt8(ascii: "+")
            case UInt8(ascii: "_"): base64[index] = UInt8(ascii: "/")
            default: break
            }
        }
        base64 += repeatElement(UInt8(ascii: "="), count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: Data(base64))
    }
}
