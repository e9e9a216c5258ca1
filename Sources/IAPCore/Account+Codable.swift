/// The body of `GET /backend/v1/accounts/{user}`: `{"coins": 60, "units": {"com.iapsim.extra-life": 2}, "owned": ["com.iapsim.noads"]}`,
/// owned sorted so that the same account is the same bytes; `familyShared` only when something is held through Family
/// Sharing, `subscribedGroups` only when the user has subscribed (a server of one's own may leave both out).
extension Account: Codable {
    private enum CodingKeys: String, CodingKey {
        case coins, units, owned, familyShared, subscribedGroups
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(coins: try container.decode(Int.self, forKey: .coins), owned: Set(try container.decode([String].self, forKey: .owned)))
        units = try container.decodeIfPresent([String: Int].self, forKey: .units) ?? [:]
        familyShared = Set(try container.decodeIfPresent([String].self, forKey: .familyShared) ?? [])
        subscribedGroups = Set(try container.decodeIfPresent([String].self, forKey: .subscribedGroups) ?? [])
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(coins, forKey: .coins)
        try container.encode(units, forKey: .units)
        try container.encode(owned.sorted(), forKey: .owned)
        if !familyShared.isEmpty { try container.encode(familyShared.sorted(), forKey: .familyShared) }
        if !subscribedGroups.isEmpty { try container.encode(subscribedGroups.sorted(), forKey: .subscribedGroups) }
    }
}

/// The body of `POST /backend/v1/orders`.
public struct OrderRequest: Codable, Sendable, Equatable {
    public let user: String
    public let productId: String
    /// 2: the app is written against StoreKit 2, which can take the server's word on the intro offer.
    public let storekit: Int?

    public init(user: String, productId: String, storekit: Int? = nil) {
        self.user = user
        self.productId = productId
        self.storekit = storekit
    }
}

/// The answer to `POST /backend/v1/orders`.
public struct OrderResponse: Codable, Sendable, Equatable {
    public let orderId: String
    /// StoreKit 2: the server's own word on whether this purchase gets the product's introductory offer, signed as
    /// Apple's `IntroductoryOfferEligibilitySignatureCreator` signs it; the app pays with
    /// `introductoryOfferEligibility(compactJWS:)`. Absent: Apple's rule decides.
    public let introductoryOfferEligibility: String?

    public init(orderId: String, introductoryOfferEligibility: String? = nil) {
        self.orderId = orderId
        self.introductoryOfferEligibility = introductoryOfferEligibility
    }
}

/// The answer to `GET /backend/v1/accounts/{user}/appAccountToken` (StoreKit 2): the user's token, lower-case UUID.
public struct AppAccountTokenResponse: Codable, Sendable, Equatable {
    public let appAccountToken: String

    public init(appAccountToken: String) {
        self.appAccountToken = appAccountToken
    }
}

/// What a backend answers when it cannot do what was asked: `{"error": "badRequest", "message": "…"}`.
public struct BackendErrorBody: Codable, Sendable, Equatable, Error {
    public let error: String
    public let message: String

    public init(error: String, message: String) {
        self.error = error
        self.message = message
    }
}

/// `POST /backend/v1/alarms`: the client's alarms for support (seed 002).
public struct AlarmsRequest: Codable, Sendable, Equatable {
    public let alarms: [AlarmReport]

    public init(alarms: [AlarmReport]) {
        self.alarms = alarms
    }
}

/// How many of them the server took.
public struct AlarmsResponse: Codable, Sendable, Equatable {
    public let received: Int

    public init(received: Int) {
        self.received = received
    }
}
