import AppleVocabulary
import Foundation
import IAPCore
import MockBackend
import MockStore

/// What the served endpoints act on: the same store, backend and faults the app (or `iapsim serve`) runs, touched only
/// on the parties' thread.
public final class ServedParties {
    private(set) var store: MockPaymentQueue
    private(set) var backend: MockBackend
    private(set) var faults: FaultBoard
    var records: AppleRecords { store.records }
    /// The parties' clock: when a signed payload says it was signed.
    let now: () -> Date
    let catalog: [Product]
    /// Told the `notificationUUID` of a test notification someone asked for (its token names it), to send it where
    /// notifications go.
    public var onTestNotification: (String) -> Void = { _ in }

    public init(store: MockPaymentQueue, backend: MockBackend, faults: FaultBoard, catalog: [Product], now: @escaping () -> Date) {
        self.store = store
        self.backend = backend
        self.faults = faults
        self.now = now
        self.catalog = catalog
    }

    /// The parties the app runs now: a relaunch, a crash on purpose or a scenario opened them anew.
    public func attach(store: MockPaymentQueue, backend: MockBackend, faults: FaultBoard) {
        guard store !== self.store else { return }
        self.store = store
        self.backend = backend
        self.faults = faults
    }

    /// Apple's `verifyReceipt` for a request body as it came.
    func verifyReceipt(_ body: Data, at environment: AppleEnvironment) -> VerifyReceiptResponse {
        store.receiptService.verify(body: body, at: environment)
    }
}
