import Foundation

/// JWS's base64url, without padding, a byte at a time: the wire writes two per signature, and going through `String`'s
/// characters cost more than signing itself.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func encode(_ bytes: some ContiguousBytes) -> String {
        bytes.withUnsafeBytes { input in
            alphabet.withUnsafeBufferPointer { alphabet in
                String(unsafeUninitializedCapacity: (input.count * 4 + 2) / 3) { output in
                    var written = 0
                    var index = 0
                    while index + 3 <= input.count {
                        let group = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
                        output[written] = alphabet[Int(group >> 18)]
                        output[written + 1] = alphabet[Int(group >> 12 & 63)]
                        output[written + 2] = alphabet[Int(group >> 6 & 63)]
                        output[written + 3] = alphabet[Int(group & 63)]
                        index += 3
                        written += 4
                    }
                    let left = input.count - index
                    if left > 0 {
                        let group = UInt32(input[index]) << 16 | (left == 2 ? UInt32(input[index + 1]) << 8 : 0)
                        output[written] = alphabet[Int(group >> 18)]
                        output[written + 1] = alphabet[Int(group >> 12 & 63)]
                        written += 2
                        if left == 2 {
                            output[written] = alphabet[Int(group >> 6 & 63)]
                            written += 1
                        }
                    }
                    return written
                }
            }
        }
    }

    /// The bytes of base64url text, padded or not; nil when it is not base64url.
    static func decode(_ text: Substring) -> Data? {
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
