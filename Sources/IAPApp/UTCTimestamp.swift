import AppleVocabulary
import Foundation

/// A moment in UTC to the second, as `Date.ISO8601Format()` writes it ("2026-12-01T21:03:19Z"): an alarm's report and
/// `iapsim state`'s times; with `milliseconds`, to the millisecond Apple's `_ms` dates give it ("2026-12-01T21:03:19.794Z").
/// Through the C library: Foundation's format style builds its Gregorian calendar at its first use, and a launch that
/// raises an alarm reports it before its first frame.
enum UTCTimestamp {
    static func text(_ date: Date, milliseconds: Bool = false) -> String {
        let apple = milliseconds ? AppleDate.milliseconds(date) : nil
        var seconds = apple.map { time_t($0 / 1000) } ?? time_t(date.timeIntervalSince1970.rounded(.down))
        var fields = tm()
        var buffer = [CChar](repeating: 0, count: 32)
        // Four-digit years only, as the format style pads them and the C library does not.
        guard gmtime_r(&seconds, &fields) != nil, (1000...9999).contains(fields.tm_year + 1900),
              case let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S", &fields), count > 0
        else { return date.ISO8601Format() }
        let text = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text + (apple.map { String(format: ".%03dZ", Int($0 % 1000)) } ?? "Z")
    }
}
