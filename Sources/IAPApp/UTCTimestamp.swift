import Foundation

/// A moment in UTC to the second, as `Date.ISO8601Format()` writes it ("2026-12-01T21:03:19Z"): an alarm's report and
/// `iapsim state`'s times. Through the C library: Foundation's format style builds its Gregorian calendar at its first
/// use, and a launch that raises an alarm reports it before its first frame.
enum UTCTimestamp {
    static func text(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var fields = tm()
        var buffer = [CChar](repeating: 0, count: 32)
        // Four-digit years only, as the format style pads them and the C library does not.
        guard gmtime_r(&seconds, &fields) != nil, (1000...9999).contains(fields.tm_year + 1900),
              case let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%SZ", &fields), count > 0
        else { return date.ISO8601Format() }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
