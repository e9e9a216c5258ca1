import IAPCore
import MockStore
import StoreSigning

/// A device's app receipt as `iapsim receipt` prints it, from the data directory's files.
public enum DeviceReceipt {
    /// Nil when the device's queue lists nothing (a finished consumable leaves the receipt, as on iOS). Dated on the
    /// store's clock where it last acted, never earlier: a skip or a fast clock puts its purchases past the wall's.
    public static func read(in directory: DataDirectory, catalog: [Product]) throws -> String? {
        let timers = TimerQueue(speed: 1)
        let store = try MockPaymentQueue(database: StoreDatabase(path: directory.store, device: directory.device), catalog: catalog,
                                         signer: ChainSigner.of, scheduler: timers)
        if let known = store.lastKnownTime { timers.jump(to: known) }
        let receipt = store.appReceipt()
        try store.close()
        return receipt
    }
}
