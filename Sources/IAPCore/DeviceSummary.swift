/// One device of the data: whom its app is logged in as and what waits there (the devices panel lists them).
public struct DeviceSummary: Sendable, Equatable {
    public let name: String
    /// The device the app runs on now.
    public let current: Bool
    /// Whom the app there is logged in as (the user it remembers); nil: nobody.
    public let user: String?
    /// The Apple ID signed in there; nil: none ever was (each app user's own).
    public let appleId: String?
    /// Transactions the store holds unfinished in this device's queue; nil when its file could not be read.
    public let unfinished: Int?
    /// Orders the client there keeps until the backend confirms them, every user's; nil when unreadable.
    public let pending: Int?

    public init(name: String, current: Bool, user: String?, appleId: String? = nil, unfinished: Int?, pending: Int?) {
        self.name = name
        self.current = current
        self.user = user
        self.appleId = appleId
        self.unfinished = unfinished
        self.pending = pending
    }
}
