/// A text in each language the app speaks: the one way any text for people is written, in the catalog files and
/// in the screens' copy alike. Choosing the language happens here and nowhere else.
public struct Localized: Sendable, Equatable {
    public let en: String
    public let zh: String

    public init(en: String, zh: String) {
        self.en = en
        self.zh = zh
    }

    public init(_ both: String) {
        self.init(en: both, zh: both)
    }

    public subscript(lang: Language) -> String {
        switch lang {
        case .en: en
        case .zh: zh
        }
    }
}

public enum Language: String, Sendable, Equatable, CaseIterable {
    case en, zh

    /// The language `l` switches to.
    public var next: Language {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }
}
