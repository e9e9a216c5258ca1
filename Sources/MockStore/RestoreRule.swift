import IAPCore

/// Restore Purchases by Apple's rules, on values: what the account owns of the products asked for, and which of them
/// come back as new `restored` transactions.
enum RestoreRule {
    /// One of the account's charges (`purchased` transactions), oldest first.
    struct Charge: Equatable {
        let id: String
        let productId: String
        /// Set on what continues an earlier purchase: a renewal, a free re-buy.
        let original: String?
        let orderId: String?
        let refunded: Bool
    }

    /// What comes back: the product and order of the charge restored, and the original it names.
    struct Owned: Equatable {
        let productId: String
        let original: String
        let charge: String
        let orderId: String?
        let refunded: Bool
    }

    /// What a restore does for one owned product, in order.
    enum Outcome: Equatable {
        /// A new `restored` transaction naming the original.
        case restore(Owned)
        /// This device's queue still holds it: its open restores are answered again, nothing piles up.
        case held([StoreTransaction])
    }

    /// A non-consumable by its first charge Apple has not refunded (a free re-buy names its original and goes with it);
    /// a subscription chain by its latest charge (a renewal, an upgrade to another level), refunded or not.
    static func owned(_ charges: [Charge], nonConsumables: Set<String>) -> [Owned] {
        var owned: [Owned] = []
        var chains: [String: Int] = [:]
        for charge in charges {
            if nonConsumables.contains(charge.productId) {
                if !charge.refunded, charge.original == nil, !owned.contains(where: { $0.productId == charge.productId }) {
                    owned.append(Owned(productId: charge.productId, original: charge.id, charge: charge.id, orderId: charge.orderId, refunded: false))
                }
                continue
            }
            let latest = Owned(productId: charge.productId, original: charge.original ?? charge.id, charge: charge.id, orderId: charge.orderId,
                               refunded: charge.refunded)
            if let index = chains[latest.original] {
                owned[index] = latest
            } else {
                chains[latest.original] = owned.count
                owned.append(latest)
            }
        }
        return owned
    }

    /// A refunded chain is revoked and not restored. A product this device's queue still holds open is answered as it is;
    /// a purchase still unfinished on another device is left to finish there first (until that app has finished it, the
    /// backend may not have credited it, and a restore verified here could credit whoever is logged in).
    static func outcomes(_ owned: [Owned], openHere: [String: [StoreTransaction]], paidElsewhere: Set<String>) -> [Outcome] {
        owned.filter { !$0.refunded && !paidElsewhere.contains($0.productId) }.map { item in
            openHere[item.productId].map { .held($0.filter { $0.state == .restored }) } ?? .restore(item)
        }
    }
}
