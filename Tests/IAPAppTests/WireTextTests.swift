@testable import AppleVocabulary
import Foundation
import Testing

/// The text the wire writes byte by byte around Foundation: base64url and Apple's date strings.
@Suite("The wire's text: base64url, Apple's date strings")
struct WireTextTests {
    @Test("base64url is Foundation's base64 with - for +, _ for / and no padding, for every length's remainder, and reads back")
    func base64URL() {
        for count in 0...70 {
            // 0xFB 0xFF 0xBF is "+/+/" in base64: both letters that base64url replaces.
            let bytes = Array([0xFB, 0xFF, 0xBF, 0x00].prefix(count)) + (0..<max(0, count - 4)).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ count) }
            let foundation = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            let ours = Base64URL.encode(bytes)
            #expect(ours == foundation)
            #expect(Base64URL.decode(Substring(ours)) == Data(bytes))
        }
        #expect(Base64URL.decode("a.b") == nil)
    }

    @Test("Apple's date strings: zero-padded, in GMT and in Cupertino")
    func appleDates() {
        let may = Date(timeIntervalSince1970: 1_714_564_800)  // 2024-05-01 12:00:00 UTC
        #expect(AppleDate.gmt(may) == "2024-05-01 12:00:00 Etc/GMT")
        #expect(AppleDate.pst(may) == "2024-05-01 05:00:00 America/Los_Angeles")
        let newYear = Date(timeIntervalSince1970: 946_684_800 + 3_723)  // 2000-01-01 01:02:03 UTC
        #expect(AppleDate.gmt(newYear) == "2000-01-01 01:02:03 Etc/GMT")
        #expect(AppleDate.pst(newYear) == "1999-12-31 17:02:03 America/Los_Angeles")
        let winter = Date(timeIntervalSince1970: 1_704_067_199)  // 2023-12-31 23:59:59 UTC, Pacific standard time
        #expect(AppleDate.gmt(winter) == "2023-12-31 23:59:59 Etc/GMT")
        #expect(AppleDate.pst(winter) == "2023-12-31 15:59:59 America/Los_Angeles")
    }
}
