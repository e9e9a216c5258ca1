/// StoreKit 2: the app's server's signed word on whether a purchase gets the product's introductory offer, as it came
/// with the order: the JWS the app pays with, and what it says, read by the app so that it shows what will be charged.
public struct IntroOfferEligibility: Sendable, Equatable {
    public let compactJWS: String
    /// `allowIntroductoryOffer`; nil when the app could not read it (the store then judges the JWS as it is).
    public let allows: Bool?

    public init(compactJWS: String, allows: Bool?) {
        self.compactJWS = compactJWS
        self.allows = allows
    }
}
