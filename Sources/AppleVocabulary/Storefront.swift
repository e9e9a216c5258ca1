/// An App Store storefront: the country or region a purchase is made in, as Apple signs it (`storefront`, ISO 3166-1
/// alpha-3) with Apple's number for it (`storefrontId`, StoreKit's `Storefront.id`).
public struct Storefront: Sendable, Equatable {
    public let code: String
    public let id: String

    /// The United States: Apple's first storefront, for prices in no currency iapsim knows a storefront of.
    public static let unitedStates = Storefront(code: "USA", id: "143441")

    /// The storefront whose currency a catalog's prices are in: the one country of it (CNY: China), or for a currency of
    /// several storefronts the first Apple numbered (EUR: France; USD: the United States).
    public init(currency: String?) {
        self = currency.flatMap { Self.byCurrency[$0] } ?? .unitedStates
    }

    private init(code: String, id: String) {
        self.code = code
        self.id = id
    }

    /// Apple's storefront numbers, by the currency each storefront's prices are in.
    private static let byCurrency: [String: Storefront] = [
        "USD": .unitedStates, "EUR": Storefront(code: "FRA", id: "143442"), "GBP": Storefront(code: "GBR", id: "143444"),
        "CAD": Storefront(code: "CAN", id: "143455"), "SEK": Storefront(code: "SWE", id: "143456"), "NOK": Storefront(code: "NOR", id: "143457"),
        "DKK": Storefront(code: "DNK", id: "143458"), "CHF": Storefront(code: "CHE", id: "143459"), "AUD": Storefront(code: "AUS", id: "143460"),
        "NZD": Storefront(code: "NZL", id: "143461"), "JPY": Storefront(code: "JPN", id: "143462"), "HKD": Storefront(code: "HKG", id: "143463"),
        "SGD": Storefront(code: "SGP", id: "143464"), "CNY": Storefront(code: "CHN", id: "143465"), "KRW": Storefront(code: "KOR", id: "143466"),
        "INR": Storefront(code: "IND", id: "143467"), "MXN": Storefront(code: "MEX", id: "143468"), "RUB": Storefront(code: "RUS", id: "143469"),
        "TWD": Storefront(code: "TWN", id: "143470"), "VND": Storefront(code: "VNM", id: "143471"), "ZAR": Storefront(code: "ZAF", id: "143472"),
        "MYR": Storefront(code: "MYS", id: "143473"), "PHP": Storefront(code: "PHL", id: "143474"), "THB": Storefront(code: "THA", id: "143475"),
        "IDR": Storefront(code: "IDN", id: "143476"), "PKR": Storefront(code: "PAK", id: "143477"), "PLN": Storefront(code: "POL", id: "143478"),
        "SAR": Storefront(code: "SAU", id: "143479"), "TRY": Storefront(code: "TUR", id: "143480"), "AED": Storefront(code: "ARE", id: "143481"),
        "HUF": Storefront(code: "HUN", id: "143482"), "CLP": Storefront(code: "CHL", id: "143483"), "CZK": Storefront(code: "CZE", id: "143489"),
        "ILS": Storefront(code: "ISR", id: "143491"), "COP": Storefront(code: "COL", id: "143501"), "BRL": Storefront(code: "BRA", id: "143503"),
        "PEN": Storefront(code: "PER", id: "143507"), "EGP": Storefront(code: "EGY", id: "143516"),
    ]
}
