/// A product as the store sells it, localized in both languages the app speaks.
public struct Product: Sendable, Equatable, Identifiable {
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        case consumable
        case nonConsumable = "non-consumable"
        case subscription
        case nonRenewing = "non-renewing"

        /// Consumables are re-bought; everything else is owned once paid.
        public var isConsumable: Bool { self == .consumable }
        /// What an account owns for good once bought, and is never charged for again (S7). An auto-renewable
        /// subscription is owned only while it has not expired (its group's rules); non-renewing ones are bought again.
        public var isOwnedOnce: Bool { self == .nonConsumable }
        /// What a live credit makes the user's on the backend (its `owned`): all but consumables, which are spent, and
        /// auto-renewable subscriptions, which an entitlement grants by date.
        public var isKept: Bool { self == .nonConsumable || self == .nonRenewing }
    }

    public let id: String
    public let kind: Kind
    public let title: Localized
    public let summary: Localized
    public let price: Localized
    /// The price as a value, what an order keeps; nil when the catalog's price says no amount iapsim can read.
    public let amount: Money?
    /// Coins credited by a consumable; zero for everything else.
    public let coins: Int
    /// A consumable that credits no coins grants one unit of itself (a .storekit product with no amount mapped): the
    /// balance counts its units. No amount is ever guessed from a name.
    public var grantsUnit: Bool { kind.isConsumable && coins == 0 }
    /// Group, level and period: set exactly for auto-renewable subscriptions (one without terms is a monthly
    /// subscription alone in a group of its own).
    public private(set) var subscription: SubscriptionTerms?
    /// Owned by every Apple ID of the buyer's family too (A4; simulated for non-consumables).
    public let familyShareable: Bool
    /// The storefront the catalog's prices are for (ISO 3166-1 alpha-3: a `.storekit` file's `_storefront`); nil: the one
    /// of the price's currency.
    public var storefront: String?

    /// Of `catalog`, the products a credit does not keep for the user (see `Kind.isKept`).
    public static func notKept(in catalog: some Sequence<Product>) -> Set<String> {
        Set(catalog.filter { !$0.kind.isKept }.map(\.id))
    }

    public init(id: String, kind: Kind, title: Localized, summary: Localized, price: Localized, coins: Int,
                subscription: SubscriptionTerms? = nil, amount: Money? = nil, familyShareable: Bool = false) {
        self.id = id
        self.familyShareable = familyShareable
        self.kind = kind
        self.title = title
        self.summary = summary
        self.price = price
        self.amount = amount
        self.coins = coins
        self.subscription = kind == .subscription ? subscription ?? SubscriptionTerms(group: id) : nil
    }

    /// The same product under a catalog whose billing grace period is on or off (it is the app's, not one product's).
    public func withGracePeriod(_ on: Bool) -> Product {
        guard var terms = subscription, terms.gracePeriod != on else { return self }
        terms.gracePeriod = on
        var product = self
        product.subscription = terms
        return product
    }

    /// The same product under a catalog that brought the key its promotional offers are signed with.
    public func withOffersKey(_ key: SubscriptionOffersKey?) -> Product {
        guard var terms = subscription, let key, terms.offersKey != key else { return self }
        terms.offersKey = key
        var product = self
        product.subscription = terms
        return product
    }
}
