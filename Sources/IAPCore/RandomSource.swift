import Foundation
import Synchronization

/// Where the parties draw what Apple and a server draw at random (a notification's UUID, a receipt's opaque value, an
/// offer code, a nonce): the system's generator in the app, a seeded one where a run must replay the same. Keys are
/// not drawn here: swift-crypto makes them from the system's own randomness.
public final class RandomSource: Sendable {
    private let generator: Mutex<any RandomNumberGenerator & Sendable>

    public init(_ generator: some RandomNumberGenerator & Sendable) {
        self.generator = Mutex(generator)
    }

    public static var system: RandomSource { RandomSource(SystemRandomNumberGenerator()) }

    /// Eight bytes to a draw: the system's generator asks the kernel once for each.
    public func bytes(_ count: Int) -> [UInt8] {
        generator.withLock { generator in
            var bytes: [UInt8] = []
            bytes.reserveCapacity(count + 7)
            while bytes.count < count { withUnsafeBytes(of: generator.next()) { bytes += $0 } }
            bytes.removeLast(bytes.count - count)
            return bytes
        }
    }

    /// A version 4 UUID, lowercased as Apple writes a notificationUUID.
    public func uuid() -> String {
        var bytes = bytes(16)
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let uuid = UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                               bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        return uuid.uuidString.lowercased()
    }

    public func string(length: Int, from alphabet: [Character]) -> String {
        generator.withLock { generator in String((0..<length).map { _ in alphabet.randomElement(using: &generator)! }) }
    }
}
