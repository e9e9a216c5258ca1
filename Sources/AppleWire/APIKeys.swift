import AppleVocabulary
import Crypto
import Foundation
import JWTKit
import MockStore

/// An App Store Server API key, as App Store Connect hands one out: the issuer, the key's id and its private half, which
/// only the key's holder keeps. The store keeps the public half, to check the tokens signed with it.
public struct APIKey: Sendable, Equatable {
    public let issuerId: String
    public let keyId: String
    public let privateKeyPEM: String

    /// Makes a key and has the store keep its public half.
    public static func create(in database: StoreDatabase) throws -> APIKey {
        let key = P256.Signing.PrivateKey()
        let keyId = String((0..<10).map { _ in Self.keyIdAlphabet.randomElement()! })
        let kept = Kept(issuerId: UUID().uuidString.lowercased(), publicKeyPEM: key.publicKey.pemRepresentation)
        _ = try database.secret(Self.entry(keyId)) { try JSONEncoder().encode(kept) }
        return APIKey(issuerId: kept.issuerId, keyId: keyId, privateKeyPEM: key.pemRepresentation)
    }

    /// The issuer and public key of a key the store keeps.
    public static func kept(_ keyId: String, in database: StoreDatabase) throws -> (issuerId: String, publicKeyPEM: String)? {
        guard keyId.count == 10, keyId.allSatisfy(keyIdAlphabet.contains),
              let data = try database.keptSecret(entry(keyId)) else { return nil }
        let kept = try JSONDecoder().decode(Kept.self, from: data)
        return (kept.issuerId, kept.publicKeyPEM)
    }

    /// A bearer token for the App Store Server API, as Apple's libraries make one: ES256, this key's id, `iat` now and
    /// `exp` `lifetime` later (at most an hour).
    public func bearerToken(at date: Date = Date(), lifetime: TimeInterval = 3600) async throws -> String {
        // NumericDate in whole seconds, as Apple's own libraries write it.
        let now = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: try ES256PrivateKey(pem: privateKeyPEM), kid: JWKIdentifier(string: keyId))
        let claims = APIToken(iss: IssuerClaim(value: issuerId), iat: IssuedAtClaim(value: now),
                              exp: ExpirationClaim(value: now.addingTimeInterval(min(lifetime, 3600))),
                              aud: AudienceClaim(value: ["appstoreconnect-v1"]), bid: Receipt.bundleId)
        return try await keys.sign(claims, kid: JWKIdentifier(string: keyId))
    }

    private static let keyIdAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    private static func entry(_ keyId: String) -> String { "apiKey." + keyId }

    private struct Kept: Codable {
        let issuerId: String
        let publicKeyPEM: String
    }
}

/// The claims of an App Store Server API bearer token.
struct APIToken: JWTPayload {
    let iss: IssuerClaim
    /// Apple's own library leaves it out; when present, the token may live an hour from it.
    let iat: IssuedAtClaim?
    let exp: ExpirationClaim
    let aud: AudienceClaim
    let bid: String?

    /// Checked by `APIKeyring` against its own clock, not the library's.
    func verify(using algorithm: some JWTAlgorithm) throws {}
}

/// Checks bearer tokens as Apple's server API does: ES256, signed by a key the store keeps, from that key's issuer, for
/// `appstoreconnect-v1` and this app, not expired, and living at most an hour.
public actor APIKeyring {
    /// A kept key's issuer and public key.
    public struct Kept: Sendable {
        public let issuerId: String
        public let publicKeyPEM: String

        public init(issuerId: String, publicKeyPEM: String) {
            self.issuerId = issuerId
            self.publicKeyPEM = publicKeyPEM
        }
    }

    /// Finds a kept key by its id.
    public typealias Lookup = @Sendable (String) async -> Kept?

    private let lookup: Lookup
    private let now: @Sendable () -> Date
    private let keys = JWTKeyCollection()
    private var issuers: [String: String] = [:]
    /// The tokens whose signature was found good, with their key's id and their claims. A token cannot change, nor can
    /// the key its id names once kept, so its signature is checked once; its claims are checked against the clock at
    /// every use, as a client may send the same token for up to an hour.
    private var signed: [String: (keyId: String, claims: APIToken)] = [:]
    private static let signedKept = 256

    public init(now: @escaping @Sendable () -> Date = Date.init, lookup: @escaping Lookup) {
        self.now = now
        self.lookup = lookup
    }

    /// Why a token was refused, or nil when it is good.
    public func refusal(of authorization: String?) async -> String? {
        guard let authorization, authorization.hasPrefix("Bearer ") else { return "no bearer token" }
        let token = String(authorization.dropFirst("Bearer ".count))
        let keyId: String, claims: APIToken
        if let known = signed[token] {
            (keyId, claims) = known
        } else {
            guard let header = Self.header(of: token) else { return "not a JWT" }
            guard header.alg == "ES256" else { return "not ES256" }
            guard let kid = header.kid else { return "no key id" }
            if issuers[kid] == nil {
                guard let kept = await lookup(kid), let key = try? ES256PublicKey(pem: kept.publicKeyPEM) else { return "unknown key id" }
                await keys.add(ecdsa: key, kid: JWKIdentifier(string: kid))
                issuers[kid] = kept.issuerId
            }
            guard let verified = try? await keys.verify(token, as: APIToken.self) else { return "bad signature" }
            if signed.count >= Self.signedKept { signed.removeAll() }
            signed[token] = (kid, verified)
            (keyId, claims) = (kid, verified)
        }
        let now = now()
        guard claims.iss.value == issuers[keyId] else { return "wrong issuer" }
        guard claims.aud.value.contains("appstoreconnect-v1") else { return "wrong audience" }
        guard let bid = claims.bid else { return "no bundle id" }
        guard bid == Receipt.bundleId else { return "wrong bundle id" }
        guard claims.exp.value > now else { return "expired" }
        guard claims.exp.value.timeIntervalSince(claims.iat?.value ?? now) <= 3600 else { return "lives over an hour" }
        return nil
    }

    private struct Header: Decodable {
        let alg: String?
        let kid: String?
    }

    private static func header(of token: String) -> Header? {
        guard let first = token.split(separator: ".", omittingEmptySubsequences: false).first, token.split(separator: ".").count == 3
        else { return nil }
        return Base64URL.decode(first).flatMap { try? JSONDecoder().decode(Header.self, from: $0) }
    }
}
