/// A product as the store sells it, localized in both languages the app speaks.
public struct Product: Sendable, Equatable, Identifiable {
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        case consumable
        case nonConsumable = "non-consumable"
        case subscription
        case nonRenewing = "non-renewing"

        /// Consumables are re-bought; everything else is owned once paid.
        public var isConsumable: Bool { self == .consumable }
        /// What an account owns once bought and is never charged for again (S7): a non-consumable, and (until
        /// subscriptions expire) an auto-renewable subscription. Non-renewing subscriptions are bought again.
        public var isOwnedOnce: Bool { self == .nonConsumable || self == .subscription }
    }

    public let id: String
    public let kind: Kind
    public let title: Localized
    public let summary: Localized
    public let price: Localized
    /// Coins credited by a consumable; zero for everything else.
    public let coins: Int

    public init(id: String, kind: Kind, title: Localized, summary: Localized, price: Localized, coins: Int) {
        self.id = id
        self.kind = kind
        self.title = title
        self.summary = summary
        self.price = price
        self.coins = coins
    }
}
