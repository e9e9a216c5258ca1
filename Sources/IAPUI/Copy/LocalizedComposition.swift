import IAPCore

/// Putting texts together in every language at once, so that a composed line never has to ask which language it is in.
extension Localized {
    static func + (a: Localized, b: Localized) -> Localized {
        Localized(en: a.en + b.en, zh: a.zh + b.zh)
    }

    /// Words the same in every language: ids, names, numbers.
    static func + (a: Localized, b: String) -> Localized {
        a + Localized(b)
    }
}

extension Array where Element == Localized {
    func joined(separator: Localized) -> Localized {
        Localized(en: map(\.en).joined(separator: separator.en), zh: map(\.zh).joined(separator: separator.zh))
    }
}
