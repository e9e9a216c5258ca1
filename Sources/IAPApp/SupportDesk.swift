import IAPCore
import MockBackend
import MockStore

/// Support's desk (A3): for a paid transaction nothing on the device could attribute, Apple's records of its Apple ID
/// and the app's own orders, side by side; whom they name is whom support assigns it to.
public enum SupportDesk {
    public static func look(at transactionId: String, store: StoreDatabase, backend: BackendDatabase) throws -> SupportCase? {
        guard let apple = try store.appleRecords(of: transactionId) else { return nil }
        let owners = try backend.orderOwners(([apple.orderId].compactMap { $0 }) + apple.appleIdOrderIds)
        return SupportCase(transactionId: transactionId, appleId: apple.appleId, orderId: apple.orderId,
                           orderOwner: apple.orderId.flatMap { owners[$0] },
                           appleIdOrderOwners: Set(apple.appleIdOrderIds.compactMap { owners[$0] }).sorted(), appleIdsPerUser: apple.perUser)
    }
}
