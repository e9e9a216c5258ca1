import AppleReceiptFormat
import MockStore

extension StoreCertificates {
    /// The chain this store database holds, made and kept on first use.
    public static func of(_ database: StoreDatabase) throws -> StoreCertificates {
        try StoreCertificates(kept: try database.secret("appleCertificates") { try make().kept() })
    }
}
