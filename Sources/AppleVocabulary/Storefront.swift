import IAPCore

/// An App Store storefront: the country or region a purchase is made in, as Apple signs it (`storefront`, ISO 3166-1
/// alpha-3) with Apple's number for it (`storefrontId`, StoreKit's `Storefront.id`).
public struct Storefront: Sendable, Equatable {
    public let code: String
    public let id: String

    /// The United States: Apple's first storefront, for prices in no currency iapsim knows a storefront of.
    public static let unitedStates = Storefront(code: "USA", id: "143441")

    /// The storefront a product is sold in: its catalog's own (a `.storekit` file's `_storefront`), else the one of its
    /// currency.
    public init(of product: Product?) {
        self = product?.storefront.flatMap(Self.init(code:)) ?? Self(currency: product?.amount?.currency)
    }

    /// The storefront whose currency a catalog's prices are in: the one country of it (CNY: China), or for a currency of
    /// several storefronts the first Apple numbered (EUR: France; USD: the United States).
    public init(currency: String?) {
        self = currency.flatMap { Self.byCurrency[$0] }.flatMap(Self.init(code:)) ?? .unitedStates
    }

    /// Nil for a country iapsim knows no App Store storefront of. In capitals, as Apple signs it, whatever case it is
    /// given in (ICU reads a `.storekit` file's "deu" as Germany for its prices).
    public init?(code: String) {
        let code = code.uppercased()
        guard let id = Self.ids[code] else { return nil }
        self.init(code: code, id: id)
    }

    private init(code: String, id: String) {
        self.code = code
        self.id = id
    }

    /// Apple's storefront numbers (StoreKit's `Storefront.id`), by country.
    private static let ids: [String: String] = [
        "USA": "143441", "FRA": "143442", "DEU": "143443", "GBR": "143444", "AUT": "143445", "BEL": "143446", "FIN": "143447",
        "GRC": "143448", "IRL": "143449", "ITA": "143450", "LUX": "143451", "NLD": "143452", "PRT": "143453", "ESP": "143454",
        "CAN": "143455", "SWE": "143456", "NOR": "143457", "DNK": "143458", "CHE": "143459", "AUS": "143460", "NZL": "143461",
        "JPN": "143462", "HKG": "143463", "SGP": "143464", "CHN": "143465", "KOR": "143466", "IND": "143467", "MEX": "143468",
        "RUS": "143469", "TWN": "143470", "VNM": "143471", "ZAF": "143472", "MYS": "143473", "PHL": "143474", "THA": "143475",
        "IDN": "143476", "PAK": "143477", "POL": "143478", "SAU": "143479", "TUR": "143480", "ARE": "143481", "HUN": "143482",
        "CHL": "143483", "PAN": "143485", "LKA": "143486", "ROU": "143487", "CZE": "143489", "ISR": "143491", "KWT": "143493",
        "HRV": "143494", "CRI": "143495", "SVK": "143496", "LBN": "143497", "QAT": "143498", "SVN": "143499", "COL": "143501",
        "VEN": "143502", "BRA": "143503", "GTM": "143504", "ARG": "143505", "SLV": "143506", "PER": "143507", "EGY": "143516",
    ]

    /// The storefront each currency's prices are in, for a catalog that names only its currency.
    private static let byCurrency: [String: String] = [
        "USD": "USA", "EUR": "FRA", "GBP": "GBR", "CAD": "CAN", "SEK": "SWE", "NOK": "NOR", "DKK": "DNK", "CHF": "CHE", "AUD": "AUS",
        "NZD": "NZL", "JPY": "JPN", "HKD": "HKG", "SGD": "SGP", "CNY": "CHN", "KRW": "KOR", "INR": "IND", "MXN": "MEX", "RUB": "RUS",
        "TWD": "TWN", "VND": "VNM", "ZAR": "ZAF", "MYR": "MYS", "PHP": "PHL", "THB": "THA", "IDR": "IDN", "PKR": "PAK", "PLN": "POL",
        "SAR": "SAU", "TRY": "TUR", "AED": "ARE", "HUF": "HUN", "CLP": "CHL", "CZK": "CZE", "ILS": "ISR", "COP": "COL", "BRL": "BRA",
        "PEN": "PER", "EGP": "EGY",
    ]
}
