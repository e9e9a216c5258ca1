import AppleVocabulary
import AppleWire
import Foundation
import IAPCore
import MockStore

/// One notification ready to go, taken off the parties' thread: what it says, unsigned, or the body its first attempt
/// signed (a retry sends those same bytes).
struct OutgoingNotification: Sendable {
    let uuid: String
    let signedBefore: String?
    let type: String
    let subtype: String?
    let transaction: JWSTransaction?
    let renewal: JWSRenewalInfo?
    let status: Int?
    let summary: StoreNotification.ExtensionSummary?
    /// CONSUMPTION_REQUEST's: the reason the customer gave for the refund request.
    let consumptionRequestReason: String?
    /// What a notification fault does to this delivery (sent twice, lost on the way).
    let detour: OutboxEntry.Detour?
    let signedAt: Date

    /// On the parties' thread: the entry with what it carried when it was written, or (written before the store kept
    /// that) Apple's records of its transaction and subscription as they are now.
    init(_ entry: OutboxEntry, records: AppleRecords, now: Date) {
        let notification = entry.notification
        uuid = notification.uuid
        signedBefore = entry.signedPayload
        type = notification.kind.rawValue
        subtype = notification.subtype?.rawValue
        summary = notification.summary
        consumptionRequestReason = notification.kind == .consumptionRequest ? notification.refundRequestReason?.rawValue : nil
        detour = entry.detour
        // As the records stood when it was written, signed as of then; else as they stand now.
        let kept = entry.content
        signedAt = kept == nil ? now : notification.date
        let content = kept ?? (try? records.content(of: notification, at: now)) ?? NotificationContent()
        transaction = content.transaction
        renewal = content.renewal
        status = content.status
    }

    /// Apple's `signedPayload`: the transaction and renewal info signed first, then the notification that carries them.
    func signedPayload(by signer: AppleSigner) async throws -> String {
        if let signedBefore { return signedBefore }
        if let summary {
            return try await signer.sign(NotificationPayload(type: type, subtype: subtype, uuid: uuid, data: nil, summary: .init(summary),
                                                             signedAt: signedAt))
        }
        let data = NotificationPayload.Data(
            signedTransactionInfo: try await transaction.asyncMap { try await signer.sign($0) },
            signedRenewalInfo: try await renewal.asyncMap { try await signer.sign($0) }, status: status,
            consumptionRequestReason: consumptionRequestReason)
        return try await signer.sign(NotificationPayload(type: type, subtype: subtype, uuid: uuid, data: data, signedAt: signedAt))
    }
}

/// The body Apple POSTs: `{"signedPayload": "<JWS>"}`.
public struct SignedNotificationBody: Codable, Sendable, Equatable {
    public let signedPayload: String

    public init(signedPayload: String) {
        self.signedPayload = signedPayload
    }
}

extension Optional {
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
