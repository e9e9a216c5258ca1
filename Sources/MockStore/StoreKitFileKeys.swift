import Foundation

/// What iapsim does with each key of Xcode's `.storekit` format, level by level, so that the import can name every key
/// it does not use: nothing a file says is dropped without a word, whichever format (or newer Xcode) wrote it.
struct StoreKitFileKeys: Sendable {
    /// Keys iapsim reads, keys that are Xcode's own bookkeeping, and keys whose loss the import names where it reads them.
    let quiet: Set<String>
    /// Keys iapsim knows and does not simulate: what to say of each, from its value. Never the value itself, which may
    /// be a secret (`subscriptionOffersKeyPair`).
    var notSimulated: [String: @Sendable (Any) -> String] = [:]
    /// Keys holding an object, or a list of objects, whose own keys are walked in turn.
    var nested: [String: StoreKitFileKeys] = [:]

    /// A warning for each key present that iapsim does not use, at its place in the file. Any other key is one a newer
    /// Xcode added: named as not used, by its place.
    func unused(in object: [String: Any], at place: String) -> [String] {
        var warnings: [String] = []
        for key in object.keys.sorted() {
            let value = object[key] as Any
            if let inner = nested[key] {
                if let map = value as? [String: Any] {
                    warnings += inner.unused(in: map, at: Self.join(place, key))
                } else if let list = value as? [[String: Any]] {
                    for (i, element) in list.enumerated() {
                        warnings += inner.unused(in: element, at: Self.join(place, "\(key)[\(i)]") + Self.productName(element))
                    }
                }
            } else if quiet.contains(key) || !Self.present(value) {
                continue
            } else if let say = notSimulated[key] {
                warnings.append("\(Self.join(place, key)): not used by iapsim (\(say(value)))")
            } else {
                warnings.append("\(Self.join(place, key)): not used by iapsim")
            }
        }
        return warnings
    }

    /// Whether a value says anything: an empty list, a false flag or null says nothing.
    private static func present(_ value: Any?) -> Bool {
        switch value {
        case nil, is NSNull: false
        case let list as [Any]: list.contains { present($0) }
        // A locale alone (a policy or localization with nothing filled in) says nothing either.
        case let map as [String: Any]: map.contains { $0.key != "locale" && present($0.value) }
        case let flag as Bool: flag
        // Xcode writes empty texts where nothing was filled in (an `appPolicies` block with no EULA or policy).
        case let text as String: !text.isEmpty
        default: true
        }
    }

    /// Inside a product the place reads as the import's other notes on it do: `products[0] "com.example.gems": key`.
    private static func join(_ place: String, _ key: String) -> String {
        place.isEmpty ? key : place.hasSuffix("\"") ? "\(place): \(key)" : "\(place).\(key)"
    }

    private static func productName(_ element: [String: Any]) -> String {
        guard let id = (element["productID"] ?? element["identifier"]) as? String, !id.isEmpty else { return "" }
        return " \"\(id)\""
    }
}

extension StoreKitFileKeys {
    /// Formats 1 to 6 as Xcode writes them.
    static let file: StoreKitFileKeys = {
        let localization = StoreKitFileKeys(quiet: ["locale", "displayName", "description"])
        let offer = StoreKitFileKeys(quiet: ["internalID", "offerID", "referenceName", "paymentMode", "subscriptionPeriod", "numberOfPeriods",
                                             "displayPrice", "billingPlanType", "eligibility", "isEligible"])
        // familyShareable and the offers beyond the intro offer are named by the product's own notes, where they are read.
        var product = StoreKitFileKeys(quiet: ["productID", "identifier", "internalID", "referenceName", "type", "displayPrice", "familyShareable",
                                               "groupNumber", "recurringSubscriptionPeriod", "subscriptionGroupID"])
        let billingPlan = StoreKitFileKeys(quiet: ["billingPlanType", "displayPrice", "commitmentDisplayPrice", "internalID", "isEnabled"])
        product.nested = ["localizations": localization, "introductoryOffer": offer, "introductoryOffers": offer, "adHocOffers": offer, "codeOffers": offer,
                          "winbackOffers": offer, "billingPlans": billingPlan]
        var group = StoreKitFileKeys(quiet: ["id", "name"])
        group.nested = ["subscriptions": product]
        group.notSimulated["localizations"] = { _ in "the group's own display name is not shown; its products' names are" }
        // Xcode's own ids and dates, and the settings `StoreKitFile.Settings.apply` turns into faults, a clock or warnings.
        let settings = StoreKitFileKeys(quiet: [
            "_storefront", "_locale", "_timeRate", "_askToBuyEnabled", "_failTransactionsEnabled", "_storeKitErrors", "_interruptedPurchasesEnabled",
            "_billingIssuesEnabled", "_renewalBillingIssuesEnabled", "_billingGracePeriodEnabled", "_disableDialogs", "_applicationInternalID",
            "_developerTeamID", "_lastSynchronizedDate", "_lastAutoRenewableSubscriptionGroupID", "_compatibilityTimeRate",
        ])
        // The offers key pair is read (never printed) where the catalog is made.
        var root = StoreKitFileKeys(quiet: ["identifier", "version", "subscriptionOffersKeyPair"])
        root.nested = ["products": product, "nonRenewingSubscriptions": product, "subscriptionGroups": group, "settings": settings]
        root.notSimulated = [
            "appPolicies": { _ in "it shows no EULA or privacy policy" },
            "subscriptionBundleGroups": { _ in "subscription bundles are not simulated; each subscription is sold in its own group" },
            "subscriptionSuiteGroups": { _ in "subscription suites are not simulated; each subscription is sold in its own group" },
        ]
        return root
    }()
}
