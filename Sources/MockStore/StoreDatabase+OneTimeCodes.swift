import Foundation
import GRDB
import IAPCore

/// App Store Connect's one-time offer codes: the store makes each offer's codes once per data directory, and each is
/// redeemed once, by whichever Apple ID types it first.
extension StoreDatabase {
    static func oneTimeCodeMigration(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE oneTimeCode (code TEXT PRIMARY KEY, offerId TEXT NOT NULL, productId TEXT NOT NULL, redeemedBy TEXT, redeemedAt DOUBLE);
            CREATE INDEX oneTimeCodeOffer ON oneTimeCode(offerId);
            """)
    }

    /// What App Store Connect's codes are made of: capitals and digits, without the ones a person misreads (0, O, 1, I).
    static let codeLetters = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
    static let codeLength = 16

    /// Makes what is missing of each offer's one-time codes (`offers`: the offer, its product and how many codes it has).
    /// Every launch with such a catalog comes here: once the codes are made, it only reads.
    func makeOneTimeCodes(_ offers: [(offer: String, productId: String, count: Int)]) throws {
        let missing = try queue.inDatabase { db in
            try offers.compactMap { offer -> (offer: String, productId: String, count: Int)? in
                let made = try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM oneTimeCode WHERE offerId = ?"), arguments: [offer.offer]) ?? 0
                return made < offer.count ? (offer.offer, offer.productId, offer.count - made) : nil
            }
        }
        guard !missing.isEmpty else { return }
        try queue.writeTransaction { db in
            for (offer, productId, count) in missing {
                var missing = count
                while missing > 0 {
                    let code = random.string(length: Self.codeLength, from: Self.codeLetters)
                    try db.cachedStatement(sql: "INSERT OR IGNORE INTO oneTimeCode (code, offerId, productId) VALUES (?, ?, ?)")
                        .execute(arguments: [code, offer, productId])
                    missing -= db.changesCount
                }
            }
        }
    }

    /// The offer a one-time code belongs to, with its product; nil for no such code.
    func oneTimeCode(_ code: String) throws -> (offerId: String, productId: String)? {
        try queue.inDatabase { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT offerId, productId FROM oneTimeCode WHERE code = ?"), arguments: [code])
                .map { ($0["offerId"], $0["productId"]) }
        }
    }

    /// Every one-time code, in the order the offers and codes sort, with who redeemed it: what `iapsim state` lists for QA.
    public func oneTimeCodes() throws -> [OneTimeCode] {
        try queue.inDatabase(Self.oneTimeCodes)
    }

    /// The same through `db` (`iapsim state`'s own read-only connection); none in a file written before them.
    public static func oneTimeCodes(_ db: Database) throws -> [OneTimeCode] {
        guard try db.tableExists("oneTimeCode") else { return [] }
        return try Row.fetchAll(db, sql: "SELECT * FROM oneTimeCode ORDER BY offerId, code").map {
            OneTimeCode(code: $0["code"], offerId: $0["offerId"], productId: $0["productId"], redeemedBy: $0["redeemedBy"],
                        redeemedAt: ($0["redeemedAt"] as Double?).map(Date.init(timeIntervalSince1970:)))
        }
    }

    /// Takes the one-time code for `account` inside the redemption's transaction; throws when it was taken before.
    static func takeOneTimeCode(_ db: Database, _ code: String, account: String, at date: Date) throws {
        try db.cachedStatement(sql: "UPDATE oneTimeCode SET redeemedBy = ?, redeemedAt = ? WHERE code = ? AND redeemedBy IS NULL")
            .execute(arguments: [account, date.timeIntervalSince1970, code])
        guard db.changesCount > 0 else { throw StoreError.oneTimeCodeUsed }
    }
}

/// One of an offer's one-time codes.
public struct OneTimeCode: Sendable, Equatable, Codable {
    public let code: String
    public let offerId: String
    public let productId: String
    /// The Apple ID that redeemed it; nil while it is unused.
    public let redeemedBy: String?
    public let redeemedAt: Date?
}
