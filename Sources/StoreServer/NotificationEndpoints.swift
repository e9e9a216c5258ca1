import AppleVocabulary
import Foundation
import Hummingbird
import MockStore

/// The App Store Server API's calls about notifications: a test one, its status, and the history of all of them, from
/// the store's outbox.
extension AppleEndpoints {
    func addNotifications(to serverAPI: RouterGroup<BasicRequestContext>) {
        serverAPI.post("v1/notifications/test") { _, _ in
            await api(id: nil) { _, parties, now in
                let uuid = parties.store.database.random.uuid()
                parties.onTestNotification(uuid)
                return { SendTestNotificationResponse(testNotificationToken: uuid + "_" + String(AppleDate.milliseconds(now))) }
            }
        }
        // Only a test notification that went where notifications go (`--notify`) has a status: the outbox keeps it.
        serverAPI.get("v1/notifications/test/:token") { _, context in
            let token = context.parameters.get("token") ?? ""
            return await api(id: nil) { _, parties, now in
                let parts = token.split(separator: "_")
                guard parts.count == 2, let uuid = UUID(uuidString: String(parts[0])), Int64(parts[1]) != nil else {
                    throw APIErrorBody.invalidTestNotificationToken
                }
                guard let entry = try parties.store.database.outboxEntry(uuid: uuid.uuidString.lowercased()), entry.notification.kind == .test
                else { throw APIErrorBody.testNotificationNotFound }
                let outgoing = OutgoingNotification(entry, records: parties.records, now: now)
                return {
                    CheckTestNotificationResponse(signedPayload: try await outgoing.signedPayload(by: signer),
                                                  sendAttempts: entry.attemptHistory.map(SendAttemptItem.init))
                }
            }
        }
        serverAPI.post("v1/notifications/history") { request, _ in
            let token = request.uri.queryParameters.get("paginationToken").map { String($0) }
            let body = await Self.body(of: request, as: NotificationHistoryRequest.self)
            return await api(id: nil) { _, parties, now in
                let page = try NotificationHistoryPage(try body.get(), token: token, now: now, records: parties.records)
                let found = try parties.store.database.notificationHistory(
                    from: page.start, to: page.end, kind: page.kind, subtype: page.subtype, onlyFailures: page.onlyFailures,
                    after: page.after, limit: NotificationHistoryPage.size) { page.account == nil || $0.account == page.account }
                let items = found.entries.map { (OutgoingNotification($0.entry, records: parties.records, now: now), $0.entry.attemptHistory) }
                let next = found.hasMore ? found.entries.last.map { PageToken(after: $0.seq).text } : nil
                return { [served, thread = self.parties] in
                    var history: [NotificationHistoryResponse.Item] = []
                    var signedNow: [(uuid: String, signedPayload: String)] = []
                    for (outgoing, attempts) in items {
                        let signed = try await outgoing.signedPayload(by: signer)
                        if outgoing.signedBefore == nil { signedNow.append((outgoing.uuid, signed)) }
                        history.append(.init(signedPayload: signed, sendAttempts: attempts.map(SendAttemptItem.init)))
                    }
                    // Apple hands out what it signed: one signed here for the first time (never sent) is these bytes at
                    // the next read, and at its first attempt if it goes later. Kept before this answer leaves, so that
                    // the next request, queued behind it on the parties' thread, finds them.
                    if !signedNow.isEmpty { thread.post { try? served.value.store.database.keepSigned(signedNow) } }
                    return NotificationHistoryResponse(paginationToken: next, hasMore: found.hasMore, notificationHistory: history)
                }
            }
        }
    }
}

/// A Notification History request checked as Apple checks it, in Apple's order, on the store's clock.
struct NotificationHistoryPage {
    /// Apple's page.
    static let size = 20
    /// How far back Apple keeps notifications.
    static let days = 180.0

    let start: Date
    let end: Date
    /// Apple's names, any Apple has: one iapsim never sends matches nothing.
    let kind: String?
    let subtype: String?
    /// The customer of the transaction named, whose notifications alone are wanted.
    let account: String?
    let onlyFailures: Bool
    let after: Int64

    init(_ request: NotificationHistoryRequest, token: String?, now: Date, records: AppleRecords) throws {
        guard let startDate = request.startDate else { throw APIErrorBody.invalidStartDate }
        guard let endDate = request.endDate else { throw APIErrorBody.invalidEndDate }
        start = Date(timeIntervalSince1970: Double(startDate) / 1000)
        end = Date(timeIntervalSince1970: Double(endDate) / 1000)
        guard start < end else { throw APIErrorBody.startDateAfterEndDate }
        guard start >= now.addingTimeInterval(-Self.days * 86_400) else { throw APIErrorBody.startDateTooFarInPast }
        if request.notificationType != nil, request.transactionId != nil { throw APIErrorBody.multipleFiltersSupplied }
        (kind, subtype) = (request.notificationType, request.notificationSubtype)
        let types = StoreNotification.appleTypes
        if let kind, types[kind] == nil { throw APIErrorBody.invalidNotificationType }
        if let subtype, !StoreNotification.appleSubtypes.contains(subtype) { throw APIErrorBody.invalidNotificationType }
        // Apple: "If you provide both the notificationType and subtype, they need to be a valid combination".
        if let kind, let subtype, types[kind]?.contains(subtype) != true { throw APIErrorBody.invalidNotificationType }
        if let id = request.transactionId {
            if AppleEndpoints.malformed(id) { throw APIErrorBody.invalidTransactionId }
            // A transaction Apple never made has no customer: nothing is theirs.
            account = try records.transaction(id)?.account ?? ""
        } else {
            account = nil
        }
        onlyFailures = request.onlyFailures ?? false
        guard let token else {
            after = 0
            return
        }
        guard let page = PageToken(token) else { throw APIErrorBody.invalidPaginationToken }
        after = page.after
    }
}
