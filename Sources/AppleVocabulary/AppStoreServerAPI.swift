import Foundation

/// The App Store Server API as the app's server reads it in process, its signed payloads already checked and decoded;
/// over HTTP it is `GET /inApps/v1/transactions/{id}`, `/inApps/v2/history/{id}` and `/inApps/v1/subscriptions/{id}`.
/// A server written against StoreKit 2 learns what it credits here, never from a receipt.
public protocol AppStoreServerAPI {
    /// Get Transaction Info: the transaction as Apple has it now (refunds included); nil when Apple has none of that id.
    func transaction(_ id: String) throws -> AppleTransaction?
    /// Get Transaction History: every charge of the customer who paid for `id`, oldest first; version 1 (without
    /// `finishedConsumables`) leaves out the consumables the app finished but for refunded or revoked ones.
    func history(of id: String, finishedConsumables: Bool) throws -> [AppleTransaction]?
    /// Get All Subscription Statuses, for one chain: its latest charge and what its renewal will do.
    func subscription(original: String) throws -> AppleSubscription?
    /// Get Notification History: every notification Apple attempted to send, dated from `start` to `end`, in the order
    /// it sent them (a server reads it for what never reached it).
    func notificationHistory(from start: Date, to end: Date) throws -> [StoreNotification]
}
