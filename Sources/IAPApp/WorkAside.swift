import Foundation

/// Work started on a thread of its own while the caller goes on, its result taken when it is needed: at launch, what the
/// first frame waits for is made on both cores.
public final class WorkAside<Value>: @unchecked Sendable {
    // Written once by the worker before `done` is signalled, read only after waiting for it: the value is handed over
    // whole, never shared.
    private var value: Value?
    private let done = DispatchSemaphore(value: 0)

    public init(_ work: @escaping @Sendable () -> Value) {
        Thread.detachNewThread { [self] in
            value = work()
            done.signal()
        }
    }

    /// The work's result, waiting for it if need be. Taken once.
    public func result() -> Value {
        done.wait()
        return value.take()!
    }
}
