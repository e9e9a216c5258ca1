import Foundation

/// Apple's `consumptionRequestReason`: what the customer gave as the reason when they asked Apple for a refund, which
/// CONSUMPTION_REQUEST passes on to the team's server.
public enum ConsumptionRequestReason: String, Codable, Sendable, CaseIterable {
    case UNINTENDED_PURCHASE, FULFILLMENT_ISSUE, UNSATISFIED_WITH_PURCHASE, LEGAL, OTHER

    /// As a script names it: Apple's name in lower case with hyphens (`unintended-purchase`); Apple's own spelling too.
    public init?(argument: String) {
        self.init(rawValue: argument.uppercased().replacingOccurrences(of: "-", with: "_"))
    }

    public var argument: String { rawValue.lowercased().replacingOccurrences(of: "_", with: "-") }

    /// Apple's `revocationReason` of the refund it grants for it: 1 for an issue within the app, else 0.
    public var revocationReason: Int { self == .FULFILLMENT_ISSUE ? 1 : 0 }
}

/// Apple's `ConsumptionRequest` (Send Consumption Information): what the team's server says of a purchase whose
/// customer asked Apple for a refund.
public struct ConsumptionRequest: Codable, Sendable, Equatable {
    public enum DeliveryStatus: String, Codable, Sendable {
        case DELIVERED, UNDELIVERED_QUALITY_ISSUE, UNDELIVERED_WRONG_ITEM, UNDELIVERED_SERVER_OUTAGE, UNDELIVERED_OTHER
    }

    public enum RefundPreference: String, Codable, Sendable {
        case DECLINE, GRANT_FULL, GRANT_PRORATED
    }

    public var customerConsented: Bool
    public var sampleContentProvided: Bool
    public var deliveryStatus: DeliveryStatus
    /// In thousandths of a percent: 0 to 100,000.
    public var consumptionPercentage: Int?
    public var refundPreference: RefundPreference?

    /// The first field Apple would refuse, by its name; nil when Apple takes it all.
    public var refusedField: String? {
        if !customerConsented { return "customerConsented" }
        if let consumptionPercentage, !(0...100_000).contains(consumptionPercentage) { return "consumptionPercentage" }
        // A prorated refund needs to know how much was consumed.
        if refundPreference == .GRANT_PRORATED, (consumptionPercentage ?? 0) == 0 { return "consumptionPercentage" }
        return nil
    }
}

/// Apple's `ConsumptionRequestV1`: the same, before version 2, as numbered codes.
public struct ConsumptionRequestV1: Codable, Sendable, Equatable {
    public var customerConsented: Bool
    public var consumptionStatus: Int
    public var platform: Int
    public var sampleContentProvided: Bool
    public var deliveryStatus: Int
    /// A UUID, or empty when the purchase has none.
    public var appAccountToken: String
    public var accountTenure: Int
    public var playTime: Int
    public var lifetimeDollarsRefunded: Int
    public var lifetimeDollarsPurchased: Int
    public var userStatus: Int
    public var refundPreference: Int?

    /// The first field Apple would refuse, by its name; nil when Apple takes it all.
    public var refusedField: String? {
        if !customerConsented { return "customerConsented" }
        let codes: KeyValuePairs<String, (Int?, ClosedRange<Int>)> = [
            "consumptionStatus": (consumptionStatus, 0...3), "platform": (platform, 0...2), "deliveryStatus": (deliveryStatus, 0...5),
            "accountTenure": (accountTenure, 0...7), "playTime": (playTime, 0...7),
            "lifetimeDollarsRefunded": (lifetimeDollarsRefunded, 0...7), "lifetimeDollarsPurchased": (lifetimeDollarsPurchased, 0...7),
            "userStatus": (userStatus, 0...4), "refundPreference": (refundPreference, 0...3),
        ]
        if let refused = codes.first(where: { _, code in code.0.map { !code.1.contains($0) } ?? false }) { return refused.key }
        if !appAccountToken.isEmpty, UUID(uuidString: appAccountToken) == nil { return "appAccountToken" }
        return nil
    }
}
